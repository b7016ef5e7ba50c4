package tankard.settings;

import tankard.store.AtomicFiles;
import tankard.store.BackupFiles;
import tankard.user.UserDirs;
import tankard.util.FileNames;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Settings snapshots {@code backups/settings_<handle>_<timestamp>.json} (ST: src/endpoints/settings.js,
 * backupUserSettings): taken at start-up, after saves (throttled per user like lodash's {@code throttle}: the first
 * save snapshots at once, saves within the next 10 minutes collapse into one snapshot at the end of that window), and
 * on request. Automatic snapshots are skipped when identical to the newest one.
 */
public final class SettingsBackups {
    /** Runs a blocking task after a delay. */
    @FunctionalInterface
    public interface Scheduler {
        void schedule(long delayMs, Runnable task);
    }

    static final long INTERVAL_MS = 10 * 60 * 1000;

    private final int keep;
    private final Scheduler scheduler;
    private final LongSupplier clock;
    private final Map<String, Long> lastRun = new HashMap<>();
    private final Set<String> pending = new HashSet<>();

    public SettingsBackups(int keep, Scheduler scheduler, LongSupplier clock) {
        this.keep = keep;
        this.scheduler = scheduler;
        this.clock = clock;
    }

    public static String prefix(String handle) {
        return "settings_" + handle + "_";
    }

    /** Called after every settings save. */
    public void afterSave(UserDirs dirs, String handle) {
        long now = clock.getAsLong();
        synchronized (this) {
            Long last = lastRun.get(handle);
            if (last != null && now - last < INTERVAL_MS) {
                if (pending.add(handle)) {
                    scheduler.schedule(last + INTERVAL_MS - now, () -> {
                        synchronized (this) {
                            pending.remove(handle);
                            lastRun.put(handle, clock.getAsLong());
                        }
                        backup(dirs, handle, true);
                    });
                }
                return;
            }
            lastRun.put(handle, now);
        }
        backup(dirs, handle, true);
    }

    /** Copies settings.json to a new snapshot; with {@code skipDuplicate}, not when the newest one is identical. */
    public void backup(UserDirs dirs, String handle, boolean skipDuplicate) {
        byte[] settings;
        try {
            settings = Files.readAllBytes(dirs.settingsFile());
        } catch (NoSuchFileException e) {
            return;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read settings.json", e);
        }
        if (skipDuplicate && Arrays.equals(settings, newest(dirs, handle))) {
            return;
        }
        AtomicFiles.write(dirs.backups().resolve(prefix(handle) + BackupFiles.timestamp() + ".json"), settings);
        // ST's retention prefix has no trailing underscore (ST: src/endpoints/settings.js, backupUserSettings).
        BackupFiles.prune(dirs.backups(), "settings_" + handle, keep);
    }

    /** The snapshot files of a user, in folder order. */
    public static List<Path> snapshots(UserDirs dirs, String handle) {
        return FileNames.list(dirs.backups()).stream()
                // a snapshot being written is not one yet (ST lists its temp files too, and fails on them)
                .filter(name -> name.startsWith(prefix(handle)) && !AtomicFiles.isOwnTemp(name))
                .map(dirs.backups()::resolve)
                .toList();
    }

    private static byte[] newest(UserDirs dirs, String handle) {
        Path newest = snapshots(dirs, handle).stream()
                .max(Comparator.comparing(BackupFiles::ctime))
                .orElse(null);
        try {
            return newest == null ? null : Files.readAllBytes(newest);
        } catch (IOException e) {
            return null;
        }
    }
}

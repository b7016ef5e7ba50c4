package tankard.settings;

import tankard.store.BackupFiles;
import tankard.store.DocumentStore;
import tankard.store.DocumentStore.Entry;
import tankard.store.DocumentStore.Folder;
import tankard.store.Locks;

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

    private final DocumentStore documents;
    /** The stores' locks: one snapshot of a user's at a time, on any node (nodes starting together take one). */
    private final Locks locks;
    private final int keep;
    private final Scheduler scheduler;
    private final LongSupplier clock;
    private final Map<String, Long> lastRun = new HashMap<>();
    private final Set<String> pending = new HashSet<>();

    public SettingsBackups(DocumentStore documents, Locks locks, int keep, Scheduler scheduler, LongSupplier clock) {
        this.documents = documents;
        this.locks = locks;
        this.keep = keep;
        this.scheduler = scheduler;
        this.clock = clock;
    }

    public static String prefix(String handle) {
        return "settings_" + handle + "_";
    }

    /** Called after every settings save. */
    public void afterSave(String handle) {
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
                        backup(handle, true);
                    });
                }
                return;
            }
            lastRun.put(handle, now);
        }
        backup(handle, true);
    }

    /** Copies settings.json to a new snapshot; with {@code skipDuplicate}, not when the newest one is identical. */
    public void backup(String handle, boolean skipDuplicate) {
        try (Locks.Held held = locks.lockAll("settings-backup\0" + handle)) {
            byte[] settings = documents.read(handle, Folder.ROOT, SettingsService.FILE).orElse(null);
            if (settings == null) {
                return;
            }
            List<Entry> snapshots = snapshots(handle);
            if (skipDuplicate && Arrays.equals(settings, newest(handle, snapshots))) {
                return;
            }
            documents.write(handle, Folder.BACKUPS, prefix(handle) + BackupFiles.timestamp() + ".json", settings);
            prune(handle);
        }
    }

    /** The user's snapshots, in folder order. */
    List<Entry> snapshots(String handle) {
        return documents.list(handle, Folder.BACKUPS).stream()
                .filter(entry -> entry.name().startsWith(prefix(handle)))
                .toList();
    }

    /** The newest snapshot's bytes by ST's {@code ctimeMs}, or null. */
    private byte[] newest(String handle, List<Entry> snapshots) {
        return snapshots.stream()
                .max(Comparator.comparingDouble(Entry::changedMs))
                .flatMap(newest -> documents.read(handle, Folder.BACKUPS, newest.name()))
                .orElse(null);
    }

    /**
     * Keeps the newest {@code keep} snapshots by modification time. ST's retention prefix has no trailing underscore
     * (ST: src/endpoints/settings.js, backupUserSettings, and src/util.js, removeOldBackups), so it also counts the
     * snapshots of a handle that extends this one, as ST does.
     */
    private void prune(String handle) {
        List<Entry> all = documents.list(handle, Folder.BACKUPS).stream()
                .filter(entry -> entry.name().startsWith("settings_" + handle))
                .sorted(Comparator.comparingDouble(Entry::modifiedMs))
                .toList();
        for (Entry old : all.subList(0, Math.max(0, all.size() - keep))) {
            documents.delete(handle, Folder.BACKUPS, old.name());
        }
    }
}

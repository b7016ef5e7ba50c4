package tankard.chat;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.config.TankardConfig;
import tankard.store.TicketStore;
import tankard.store.Writeback;
import tankard.util.Sanitize;
import tankard.util.StTime;

import java.io.IOException;
import java.io.InputStream;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Chat backups after saves (src/endpoints/chats.js, backupChat and getBackupFunction):
 * {@code backups/chat_<key>_<timestamp>.jsonl}, throttled per user (the first save in a window is backed up at
 * once, later ones collapse into one trailing backup of the latest save), then pruned by mtime to
 * {@code backups.common.numberOfBackups} per key and {@code backups.chat.maxTotalBackups} overall. A window is a
 * ticket the backup that opens it claims ({@link TicketStore#claim}), so that on a database the nodes share the
 * user's windows: one backup per window in all, each node's latest save backed up in a window of its own.
 */
final class ChatBackups {
    private static final Logger LOG = LoggerFactory.getLogger(ChatBackups.class);
    static final String PREFIX = "chat_";

    /** A backup to write: the content is the saved chat as it was at the save, open until written. */
    private record Backup(String name, InputStream content) {
        /** Closes the content in the background: the saved chat it reads may be replaced since, and freed on close. */
        void discard() {
            Writeback.close(content);
        }
    }

    /** The ticket kind of a user's backup window; its value is when the window opened (ms). */
    private static final String WINDOW = "chat-backup-window";

    /** This node's backup of a user's waiting for a window; guarded by its own monitor. */
    private static final class Throttle {
        Backup pending;
        ScheduledFuture<?> trailing;
    }

    private final ChatStore store;
    private final TicketStore windows;
    private final TankardConfig.Backups config;
    private final ScheduledExecutorService timer;
    private final LongSupplier clock;
    private final Map<String, Throttle> throttles = new ConcurrentHashMap<>();

    ChatBackups(ChatStore store, TicketStore windows, TankardConfig.Backups config, ScheduledExecutorService timer,
                LongSupplier clock) {
        this.store = store;
        this.windows = windows;
        this.config = config;
        this.timer = timer;
        this.clock = clock;
    }

    /**
     * A chat was saved: back it up now or at the end of the user's throttle window. The content is a stream
     * opened on the saved chat right after the save; this closes it.
     */
    void saved(String user, String name, InputStream content) {
        if (!config.chatEnabled()) {
            new Backup(name, content).discard();
            return;
        }
        Backup backup = new Backup(name, content);
        Throttle throttle = throttles.computeIfAbsent(user, u -> new Throttle());
        synchronized (throttle) {
            if (throttle.trailing != null || !claimWindow(user)) {
                if (throttle.pending != null) {
                    throttle.pending.discard();
                }
                throttle.pending = backup;
                if (throttle.trailing == null) {
                    scheduleTrailing(user, throttle);
                }
                return;
            }
        }
        write(user, backup);
    }

    /** Backs up the latest save at the end of the current window, in a window of its own. */
    private void runTrailing(String user, Throttle throttle) {
        Backup backup;
        synchronized (throttle) {
            if (!claimWindow(user)) { // another node's backup opened the next window first: wait for its end
                scheduleTrailing(user, throttle);
                return;
            }
            backup = throttle.pending;
            throttle.pending = null;
            throttle.trailing = null;
        }
        write(user, backup);
    }

    private void scheduleTrailing(String user, Throttle throttle) {
        throttle.trailing = timer.schedule(() -> runTrailing(user, throttle), untilWindowEnds(user),
                TimeUnit.MILLISECONDS);
    }

    /**
     * Opens a window for a backup of the user's now, unless one is open; a store that does not answer lets the
     * backup go ahead (a backup too many harms nothing; its write then fails if the database is gone, and says so).
     */
    private boolean claimWindow(String user) {
        long now = clock.getAsLong();
        try {
            return windows.claim(user, WINDOW, String.valueOf(now), config.chatThrottleIntervalMs());
        } catch (RuntimeException e) {
            LOG.warn("Could not open a backup window for {}: {}", user, e.toString());
            return true;
        }
    }

    /** How long until the user's open window ends. */
    private long untilWindowEnds(String user) {
        long now = clock.getAsLong();
        try {
            long opened = windows.find(user, WINDOW).map(Long::parseLong).orElse(now);
            return Math.max(0, opened + config.chatThrottleIntervalMs() - now);
        } catch (RuntimeException e) {
            return config.chatThrottleIntervalMs();
        }
    }

    /**
     * Keeps the chat about to be replaced, whatever the throttle (and even with backups off): for saves that
     * would lose lines or most of the chat. Named like ST's backups, so ST's backup list offers it. A failure
     * is thrown, so that the save does not go ahead without it.
     */
    void keepReplaced(String user, String name, InputStream content) throws IOException {
        write(user, new Backup(name, content), "_replaced");
    }

    private void write(String user, Backup backup) {
        try {
            write(user, backup, "");
        } catch (IOException | RuntimeException e) {
            LOG.error("Could not back up the chat {} of {}", backup.name(), user, e);
        }
    }

    private void write(String user, Backup backup, String suffix) throws IOException {
        String key = PREFIX + key(backup.name()) + "_";
        try {
            store.writeBackup(user, key + StTime.backupTimestamp(clock.getAsLong()) + suffix + ".jsonl", backup.content());
            prune(user, key, config.numberOfBackups());
            if (config.maxTotalChatBackups() >= 0) {
                prune(user, PREFIX, config.maxTotalChatBackups());
            }
        } finally {
            backup.discard();
        }
    }

    /** Keeps the newest {@code keep} backups whose names start with the prefix. */
    private void prune(String user, String prefix, int keep) throws IOException {
        List<ChatFile> backups = store.backups(user, prefix);
        if (backups.size() <= keep) {
            return;
        }
        List<ChatFile> oldestFirst = backups.stream().sorted(Comparator.comparingDouble(ChatFile::modifiedMs)).toList();
        for (ChatFile old : oldestFirst.subList(0, backups.size() - keep)) {
            store.deleteBackup(user, old.name());
        }
    }

    /** The backup key of a character folder or group chat id: sanitized, non-alphanumerics to "_", lower case. */
    static String key(String name) {
        StringBuilder key = new StringBuilder();
        for (char c : Sanitize.filename(name).toCharArray()) {
            boolean alnum = c < 128 && Character.isLetterOrDigit(c);
            key.append(alnum ? Character.toLowerCase(c) : '_');
        }
        return key.toString();
    }
}

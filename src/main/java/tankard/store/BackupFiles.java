package tankard.store;

import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/** ST's backup-file conventions: local {@code YYYYMMDD-HHMMSS} stamps. */
public final class BackupFiles {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private BackupFiles() {
    }

    /** The server-local time as ST stamps backup names (ST: src/util.js, generateTimestamp). */
    public static String timestamp() {
        return LocalDateTime.now().format(STAMP);
    }
}

package tankard.util;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * The time formats ST writes into names and data (ST: src/util.js, humanizedDateTime, generateTimestamp). Local
 * formats use the server's zone.
 */
public final class StTime {
    private static final DateTimeFormatter HUMANIZED = DateTimeFormatter.ofPattern("yyyy-MM-dd@HH'h'mm'm'ss's'SSS'ms'");
    private static final DateTimeFormatter BACKUP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");
    private static final DateTimeFormatter ISO = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneId.of("UTC"));

    private StTime() {
    }

    /** {@code 2026-11-30@21h35m08s392ms}: default chat names, group chat ids. */
    public static String humanized(long epochMs) {
        return local(epochMs).format(HUMANIZED);
    }

    /** {@code 20261130-213415}: backup file names. */
    public static String backupTimestamp(long epochMs) {
        return local(epochMs).format(BACKUP);
    }

    /** {@code Date.prototype.toISOString()}: UTC with milliseconds; years beyond 0–9999 as a signed six-digit year. */
    public static String iso(long epochMs) {
        String iso = ISO.format(Instant.ofEpochMilli(epochMs));
        int year = Instant.ofEpochMilli(epochMs).atZone(ZoneOffset.UTC).getYear();
        if (year >= 0 && year <= 9999) {
            return iso;
        }
        return String.format("%s%06d", year < 0 ? "-" : "+", Math.abs(year)) + iso.substring(iso.indexOf('-', 1));
    }

    private static LocalDateTime local(long epochMs) {
        return LocalDateTime.ofInstant(Instant.ofEpochMilli(epochMs), ZoneId.systemDefault());
    }
}

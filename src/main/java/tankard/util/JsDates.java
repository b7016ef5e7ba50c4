package tankard.util;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * JavaScript's {@code new Date(value).getTime()} for the values ST's data holds: epoch milliseconds, and the
 * ISO 8601 forms V8 accepts ({@code YYYY[-MM[-DD]][THH:mm[:ss[.f…]]][Z|±HH:mm]}, a space in place of the T).
 * Like V8, a day up to 31 rolls over into the next month, 24:00:00 is the next midnight, a date alone is UTC
 * and a date with a time but no zone is server-local. Anything else is NaN.
 */
public final class JsDates {
    /** The largest time a JavaScript Date holds (±100,000,000 days). */
    private static final double MAX_TIME = 8.64e15;
    private static final Pattern ISO = Pattern.compile(
            "([+-]\\d{6}|\\d{4})(?:-(\\d{2})(?:-(\\d{2}))?)?"
                    + "(?:[T ](\\d{2}):(\\d{2})(?::(\\d{2})(?:\\.(\\d+))?)?)?"
                    + "(Z|[+-]\\d{2}:\\d{2})?");

    private JsDates() {
    }

    /** {@code new Date(ms).getTime()}: the time, or NaN outside a Date's range. */
    public static double fromMillis(double ms) {
        if (Double.isNaN(ms) || Math.abs(ms) > MAX_TIME) {
            return Double.NaN;
        }
        double truncated = ms < 0 ? Math.ceil(ms) : Math.floor(ms);
        return truncated == 0 ? 0 : truncated;
    }

    /** {@code new Date(text).getTime()} for the ISO forms; NaN for text V8 would not read as one. */
    public static double parse(String text) {
        Matcher m = ISO.matcher(text.trim());
        if (!m.matches() || m.group(1).equals("-000000")) {
            return Double.NaN;
        }
        boolean hasTime = m.group(4) != null;
        int year = Integer.parseInt(m.group(1));
        int month = m.group(2) == null ? 1 : Integer.parseInt(m.group(2));
        int day = m.group(3) == null ? 1 : Integer.parseInt(m.group(3));
        int hour = hasTime ? Integer.parseInt(m.group(4)) : 0;
        int minute = hasTime ? Integer.parseInt(m.group(5)) : 0;
        int second = m.group(6) == null ? 0 : Integer.parseInt(m.group(6));
        int millis = m.group(7) == null ? 0 : Integer.parseInt((m.group(7) + "00").substring(0, 3));
        boolean midnightEnd = hour == 24 && minute == 0 && second == 0 && millis == 0;
        if (month < 1 || month > 12 || day < 1 || day > 31 || (hour > 23 && !midnightEnd) || minute > 59
                || second > 59) {
            return Double.NaN;
        }
        LocalDateTime local = LocalDateTime.of(year, month, 1, 0, 0)
                .plusDays(day - 1L).plusHours(hour).plusMinutes(minute).plusSeconds(second)
                .plusNanos(millis * 1_000_000L);
        String zone = m.group(8);
        if (zone == null) {
            ZoneId zoneId = hasTime ? ZoneId.systemDefault() : ZoneOffset.UTC;
            return fromMillis(local.atZone(zoneId).toInstant().toEpochMilli());
        }
        long offsetMinutes = 0;
        if (!zone.equals("Z")) {
            int hours = Integer.parseInt(zone.substring(1, 3));
            int minutes = Integer.parseInt(zone.substring(4, 6));
            if (hours > 23 || minutes > 59) {
                return Double.NaN;
            }
            offsetMinutes = (zone.charAt(0) == '-' ? -1 : 1) * (hours * 60L + minutes);
        }
        return fromMillis(local.toInstant(ZoneOffset.UTC).toEpochMilli() - offsetMinutes * 60_000);
    }
}

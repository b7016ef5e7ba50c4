package tankard.engine.macro;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoField;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The parts of moment.js (English locale) the time macros use: {@code format} with moment's tokens, duration
 * {@code humanize}, and parsing of ISO 8601 strings (ST: public/scripts/macros/definitions/time-macros.js).
 */
final class Moment {
    private static final Pattern LOCAL_FORMAT_TOKENS = Pattern.compile("(\\[[^\\[]*])|(\\\\)?(LTS|LT|LL?L?L?|l{1,4})");
    private static final Pattern FORMAT_TOKENS = Pattern.compile("(\\[[^\\[]*])|(\\\\)?([Hh]mm(ss)?|Mo|MM?M?M?|Do|DDDo"
            + "|DD?D?D?|ddd?d?|do?|w[o|w]?|W[o|W]?|Qo?|N{1,5}|YYYYYY|YYYYY|YYYY|YY|y{2,4}|yo?|gg(ggg?)?|GG(GGG?)?|e|E|a|A"
            + "|hh?|HH?|kk?|mm?|ss?|S{1,9}|x|X|zz?|ZZ?|[^\\n\\r\\u2028\\u2029])");
    private static final Map<String, String> LONG_FORMATS = Map.of(
            "LTS", "h:mm:ss A", "LT", "h:mm A", "L", "MM/DD/YYYY", "LL", "MMMM D, YYYY",
            "LLL", "MMMM D, YYYY h:mm A", "LLLL", "dddd, MMMM D, YYYY h:mm A",
            "l", "M/D/YYYY", "ll", "MMM D, YYYY", "lll", "MMM D, YYYY h:mm A", "llll", "ddd, MMM D, YYYY h:mm A");
    private static final String[] MONTHS = {"January", "February", "March", "April", "May", "June", "July", "August",
        "September", "October", "November", "December"};
    private static final String[] WEEKDAYS = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
        "Saturday"};
    private static final Pattern ISO = Pattern.compile("\\s*(\\d{4})-(\\d\\d)(?:-(\\d\\d))?(?:[T ](\\d\\d)(?::(\\d\\d)"
            + "(?::(\\d\\d)(?:[.,](\\d+))?)?)?(Z|\\s*Z|[+-]\\d\\d(?::?\\d\\d)?)?)?");

    private Moment() {
    }

    /** {@code moment().format(format)} in the en locale; line breaks match no token, so moment drops them. */
    static String format(ZonedDateTime time, String format) {
        String expanded = format;
        for (int i = 0; i < 5; i++) {
            Matcher matcher = LOCAL_FORMAT_TOKENS.matcher(expanded);
            StringBuilder out = new StringBuilder();
            boolean changed = false;
            while (matcher.find()) {
                String replacement = LONG_FORMATS.getOrDefault(matcher.group(), matcher.group());
                changed |= !replacement.equals(matcher.group());
                matcher.appendReplacement(out, Matcher.quoteReplacement(replacement));
            }
            matcher.appendTail(out);
            expanded = out.toString();
            if (!changed) {
                break;
            }
        }
        StringBuilder out = new StringBuilder();
        Matcher matcher = FORMAT_TOKENS.matcher(expanded);
        while (matcher.find()) {
            String token = matcher.group();
            String value = token(time, token);
            if (value != null) {
                out.append(value);
            } else if (token.startsWith("[") && token.length() > 1) {
                out.append(token.replaceAll("^\\[|]$", ""));
            } else {
                out.append(token.replace("\\", ""));
            }
        }
        return out.toString();
    }

    private static String token(ZonedDateTime t, String token) {
        int hour = t.getHour();
        int h12 = hour % 12 == 0 ? 12 : hour % 12;
        int day = t.getDayOfWeek().getValue() % 7;
        return switch (token) {
            case "M" -> String.valueOf(t.getMonthValue());
            case "Mo" -> ordinal(t.getMonthValue());
            case "MM" -> pad(t.getMonthValue(), 2);
            case "MMM" -> MONTHS[t.getMonthValue() - 1].substring(0, 3);
            case "MMMM" -> MONTHS[t.getMonthValue() - 1];
            case "Q" -> String.valueOf((t.getMonthValue() + 2) / 3);
            case "Qo" -> ordinal((t.getMonthValue() + 2) / 3);
            case "D" -> String.valueOf(t.getDayOfMonth());
            case "Do" -> ordinal(t.getDayOfMonth());
            case "DD" -> pad(t.getDayOfMonth(), 2);
            case "DDD" -> String.valueOf(t.getDayOfYear());
            case "DDDo" -> ordinal(t.getDayOfYear());
            case "DDDD" -> pad(t.getDayOfYear(), 3);
            case "d", "e" -> String.valueOf(day);
            case "do" -> ordinal(day);
            case "dd" -> WEEKDAYS[day].substring(0, 2);
            case "ddd" -> WEEKDAYS[day].substring(0, 3);
            case "dddd" -> WEEKDAYS[day];
            case "E" -> String.valueOf(t.getDayOfWeek().getValue());
            case "w" -> String.valueOf(week(t, 0, 6)[0]);
            case "wo" -> ordinal(week(t, 0, 6)[0]);
            case "ww" -> pad(week(t, 0, 6)[0], 2);
            case "W" -> String.valueOf(week(t, 1, 4)[0]);
            case "Wo" -> ordinal(week(t, 1, 4)[0]);
            case "WW" -> pad(week(t, 1, 4)[0], 2);
            case "gg" -> pad(week(t, 0, 6)[1] % 100, 2);
            case "gggg" -> pad(week(t, 0, 6)[1], 4);
            case "ggggg" -> pad(week(t, 0, 6)[1], 5);
            case "GG" -> pad(week(t, 1, 4)[1] % 100, 2);
            case "GGGG" -> pad(week(t, 1, 4)[1], 4);
            case "GGGGG" -> pad(week(t, 1, 4)[1], 5);
            case "YY" -> pad(t.getYear() % 100, 2);
            case "YYYY" -> pad(t.getYear(), 4);
            case "YYYYY" -> pad(t.getYear(), 5);
            case "YYYYYY" -> (t.getYear() >= 0 ? "+" : "-") + pad(Math.abs(t.getYear()), 6);
            case "Y" -> t.getYear() <= 9999 ? pad(t.getYear(), 4) : "+" + t.getYear();
            case "N", "NN", "NNN", "NNNNN" -> t.getYear() > 0 ? "AD" : "BC";
            case "NNNN" -> t.getYear() > 0 ? "Anno Domini" : "Before Christ";
            case "a" -> hour > 11 ? "pm" : "am";
            case "A" -> hour > 11 ? "PM" : "AM";
            case "H" -> String.valueOf(hour);
            case "HH" -> pad(hour, 2);
            case "h" -> String.valueOf(h12);
            case "hh" -> pad(h12, 2);
            case "k" -> String.valueOf(hour == 0 ? 24 : hour);
            case "kk" -> pad(hour == 0 ? 24 : hour, 2);
            case "m" -> String.valueOf(t.getMinute());
            case "mm" -> pad(t.getMinute(), 2);
            case "s" -> String.valueOf(t.getSecond());
            case "ss" -> pad(t.getSecond(), 2);
            case "hmm" -> h12 + pad(t.getMinute(), 2);
            case "hmmss" -> h12 + pad(t.getMinute(), 2) + pad(t.getSecond(), 2);
            case "Hmm" -> hour + pad(t.getMinute(), 2);
            case "Hmmss" -> hour + pad(t.getMinute(), 2) + pad(t.getSecond(), 2);
            case "Z" -> offset(t, ":");
            case "ZZ" -> offset(t, "");
            case "z", "zz" -> "";
            case "X" -> String.valueOf(Math.floorDiv(t.toInstant().toEpochMilli(), 1000));
            case "x" -> String.valueOf(t.toInstant().toEpochMilli());
            default -> token.matches("S{1,9}") ? fraction(t, token.length()) : null;
        };
    }

    private static String fraction(ZonedDateTime t, int digits) {
        int millis = t.get(ChronoField.MILLI_OF_SECOND);
        String value = pad(millis, 3);
        return digits <= 3 ? value.substring(0, digits) : value + "0".repeat(digits - 3);
    }

    private static String offset(ZonedDateTime t, String separator) {
        int minutes = t.getOffset().getTotalSeconds() / 60;
        String sign = minutes < 0 ? "-" : "+";
        minutes = Math.abs(minutes);
        return sign + pad(minutes / 60, 2) + separator + pad(minutes % 60, 2);
    }

    /** moment's weekOfYear: {week, year} for a locale's first day of week and first-week day of year. */
    private static int[] week(ZonedDateTime t, int dow, int doy) {
        int year = t.getYear();
        int offset = firstWeekOffset(year, dow, doy);
        int week = Math.floorDiv(t.getDayOfYear() - offset - 1, 7) + 1;
        if (week < 1) {
            return new int[]{week + weeksInYear(year - 1, dow, doy), year - 1};
        }
        if (week > weeksInYear(year, dow, doy)) {
            return new int[]{week - weeksInYear(year, dow, doy), year + 1};
        }
        return new int[]{week, year};
    }

    private static int firstWeekOffset(int year, int dow, int doy) {
        int firstWeekDay = 7 + dow - doy;
        int weekday = LocalDate.of(year, 1, 1).plusDays(firstWeekDay - 1).getDayOfWeek().getValue() % 7;
        int lastWeekDays = (7 + weekday - dow) % 7;
        return -lastWeekDays + firstWeekDay - 1;
    }

    private static int weeksInYear(int year, int dow, int doy) {
        int days = LocalDate.of(year, 1, 1).lengthOfYear();
        return (days - firstWeekOffset(year, dow, doy) + firstWeekOffset(year + 1, dow, doy)) / 7;
    }

    static String ordinal(int number) {
        int last = number % 10;
        String suffix = number % 100 / 10 == 1 ? "th" : last == 1 ? "st" : last == 2 ? "nd" : last == 3 ? "rd" : "th";
        return number + suffix;
    }

    private static String pad(int number, int width) {
        String digits = String.valueOf(Math.abs(number));
        return (number < 0 ? "-" : "") + "0".repeat(Math.max(0, width - digits.length())) + digits;
    }

    /**
     * {@code moment.duration(milliseconds).humanize(withSuffix)} in English: "a few seconds", "5 minutes", … and
     * with a suffix "in …" for a positive duration, "… ago" otherwise.
     */
    static String humanize(double milliseconds, boolean withSuffix) {
        if (Double.isNaN(milliseconds)) {
            return "Invalid date";
        }
        double abs = Math.abs(milliseconds);
        long seconds = Math.round(abs / 1000);
        long minutes = Math.round(abs / 6e4);
        long hours = Math.round(abs / 36e5);
        double exactDays = abs / 864e5;
        long days = Math.round(exactDays);
        long months = Math.round(exactDays * 4800 / 146097);
        long years = Math.round(exactDays * 4800 / 146097 / 12);
        String text;
        if (seconds <= 44) {
            text = "a few seconds";
        } else if (seconds < 45) {
            text = seconds + " seconds";
        } else if (minutes <= 1) {
            text = "a minute";
        } else if (minutes < 45) {
            text = minutes + " minutes";
        } else if (hours <= 1) {
            text = "an hour";
        } else if (hours < 22) {
            text = hours + " hours";
        } else if (days <= 1) {
            text = "a day";
        } else if (days < 26) {
            text = days + " days";
        } else if (months <= 1) {
            text = "a month";
        } else if (months < 11) {
            text = months + " months";
        } else if (years <= 1) {
            text = "a year";
        } else {
            text = years + " years";
        }
        if (!withSuffix) {
            return text;
        }
        return milliseconds > 0 ? "in " + text : text + " ago";
    }

    /**
     * {@code moment(text)} for the ISO 8601 forms moment reads (a date, a date and time, an optional offset):
     * without an offset the time is local to {@code zone}. Null when moment would answer an invalid date.
     */
    static ZonedDateTime parseIso(String text, ZoneId zone) {
        Matcher matcher = ISO.matcher(text);
        if (!matcher.matches()) {
            return null;
        }
        try {
            int year = Integer.parseInt(matcher.group(1));
            int month = Integer.parseInt(matcher.group(2));
            int day = matcher.group(3) == null ? 1 : Integer.parseInt(matcher.group(3));
            int hour = matcher.group(4) == null ? 0 : Integer.parseInt(matcher.group(4));
            int minute = matcher.group(5) == null ? 0 : Integer.parseInt(matcher.group(5));
            int second = matcher.group(6) == null ? 0 : Integer.parseInt(matcher.group(6));
            int millis = matcher.group(7) == null ? 0
                    : Integer.parseInt((matcher.group(7) + "00").substring(0, 3));
            LocalDateTime local = LocalDateTime.of(LocalDate.of(year, month, day),
                    hour == 24 ? LocalTime.MIDNIGHT : LocalTime.of(hour, minute, second, millis * 1_000_000));
            if (hour == 24) {
                local = local.plusDays(1);
            }
            String offset = matcher.group(8);
            if (offset == null) {
                return local.atZone(zone);
            }
            offset = offset.strip();
            if (offset.equals("Z")) {
                return local.atZone(ZoneOffset.UTC).withZoneSameInstant(zone);
            }
            String digits = offset.replace(":", "");
            int minutes = Integer.parseInt(digits.substring(1, 3)) * 60
                    + (digits.length() > 3 ? Integer.parseInt(digits.substring(3, 5)) : 0);
            ZoneOffset zoneOffset = ZoneOffset.ofTotalSeconds((offset.startsWith("-") ? -minutes : minutes) * 60);
            return local.atOffset(zoneOffset).atZoneSameInstant(zone);
        } catch (RuntimeException e) {
            return null;
        }
    }
}

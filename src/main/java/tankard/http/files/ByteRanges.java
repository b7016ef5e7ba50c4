package tankard.http.files;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A parsed {@code Range: bytes=...} header against a file size, with the rules of Node's range-parser:
 * open ends, suffix ranges, ends clamped to the size, invalid parts dropped, overlapping parts merged.
 */
record ByteRanges(List<Range> ranges) {
    record Range(long start, long end) {
    }

    /** The ranges, or null when the header is not a range expression at all (then the whole file is sent). */
    static ByteRanges parse(long size, String header) {
        int eq = header.indexOf('=');
        if (eq < 0) {
            return null;
        }
        List<Range> ranges = new ArrayList<>();
        for (String part : header.substring(eq + 1).split(",", -1)) {
            String[] bounds = part.split("-", -1);
            Long start = leadingInt(bounds[0]);
            Long end = bounds.length > 1 ? leadingInt(bounds[1]) : null;
            if (start == null && end != null) {
                start = size - end;
                end = size - 1;
            } else if (start != null && end == null) {
                end = size - 1;
            }
            if (start == null) {
                continue;
            }
            end = Math.min(end, size - 1);
            if (start > end || start < 0) {
                continue;
            }
            ranges.add(new Range(start, end));
        }
        return new ByteRanges(merge(ranges));
    }

    boolean unsatisfiable() {
        return ranges.isEmpty();
    }

    /** The only range, or null when there are several. */
    Range single() {
        return ranges.size() == 1 ? ranges.get(0) : null;
    }

    private static List<Range> merge(List<Range> ranges) {
        List<Range> sorted = new ArrayList<>(ranges);
        sorted.sort(Comparator.comparingLong(Range::start));
        List<Range> merged = new ArrayList<>();
        for (Range r : sorted) {
            Range last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (last == null || r.start() > last.end() + 1) {
                merged.add(r);
            } else if (r.end() > last.end()) {
                merged.set(merged.size() - 1, new Range(last.start(), r.end()));
            }
        }
        return merged;
    }

    /** JavaScript's parseInt for base 10: leading blanks, optional sign, then digits; null when there are none. */
    private static Long leadingInt(String s) {
        int i = 0;
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        int signAt = i;
        if (i < s.length() && (s.charAt(i) == '-' || s.charAt(i) == '+')) {
            i++;
        }
        int digits = i;
        while (i < s.length() && i - digits < 18 && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
            i++;
        }
        if (i == digits) {
            return null;
        }
        return Long.parseLong(s.substring(signAt, i));
    }
}

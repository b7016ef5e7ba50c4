package tankard.util;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * An IPv4 (4 octets) or IPv6 (8 groups) address parsed without any DNS lookup. As a pattern, a part may
 * be a wildcard ({@link #ANY}), which is how whitelist entries such as {@code 192.168.*.*} are written.
 */
public final class IpAddress {
    /** A wildcard part of a pattern. */
    static final int ANY = -1;

    private static final Pattern V4 = Pattern.compile("(?:(?:\\d{1,3}|\\*)\\.){3}(?:\\d{1,3}|\\*)");
    private static final Pattern V6_GROUP = Pattern.compile("[0-9a-fA-F]{1,4}|\\*");

    private final int[] parts;

    private IpAddress(int[] parts) {
        this.parts = parts;
    }

    static IpAddress of(int[] parts) {
        return new IpAddress(parts.clone());
    }

    /** An exact address, or null when the text is not one (host names are not resolved). */
    public static IpAddress parse(String text) {
        IpAddress ip = parsePattern(text);
        return ip != null && ip.exact() ? ip : null;
    }

    /** An address that may contain wildcard parts, or null when the text is not one. */
    static IpAddress parsePattern(String text) {
        if (text == null) {
            return null;
        }
        String s = text.trim();
        if (V4.matcher(s).matches()) {
            return parseV4(s);
        }
        return s.indexOf(':') >= 0 ? parseV6(s) : null;
    }

    private static IpAddress parseV4(String s) {
        String[] octets = s.split("\\.");
        int[] parts = new int[4];
        for (int i = 0; i < 4; i++) {
            parts[i] = octets[i].equals("*") ? ANY : Integer.parseInt(octets[i]);
            if (parts[i] > 255) {
                return null;
            }
        }
        return new IpAddress(parts);
    }

    private static IpAddress parseV6(String s) {
        int gap = s.indexOf("::");
        if (gap >= 0 && s.indexOf("::", gap + 1) >= 0) {
            return null;
        }
        List<Integer> head = gap < 0 ? groups(s, true) : groups(s.substring(0, gap), false);
        List<Integer> tail = gap < 0 ? List.of() : groups(s.substring(gap + 2), true);
        if (head == null || tail == null) {
            return null;
        }
        int missing = 8 - head.size() - tail.size();
        if (gap < 0 ? missing != 0 : missing < 1) {
            return null;
        }
        int[] parts = new int[8];
        for (int i = 0; i < head.size(); i++) {
            parts[i] = head.get(i);
        }
        for (int i = 0; i < tail.size(); i++) {
            parts[8 - tail.size() + i] = tail.get(i);
        }
        return new IpAddress(parts);
    }

    /** Colon-separated groups; at the end of the address the last may be a dotted IPv4 address (no wildcards). */
    private static List<Integer> groups(String s, boolean dottedLast) {
        List<Integer> out = new ArrayList<>();
        if (s.isEmpty()) {
            return out;
        }
        String[] items = s.split(":", -1);
        for (int i = 0; i < items.length; i++) {
            String item = items[i];
            if (dottedLast && i == items.length - 1 && item.indexOf('.') >= 0) {
                IpAddress v4 = parse(item);
                if (v4 == null || !v4.isV4()) {
                    return null;
                }
                out.add(v4.parts[0] << 8 | v4.parts[1]);
                out.add(v4.parts[2] << 8 | v4.parts[3]);
            } else if (V6_GROUP.matcher(item).matches()) {
                out.add(item.equals("*") ? ANY : Integer.parseInt(item, 16));
            } else {
                return null;
            }
        }
        return out;
    }

    public boolean isV4() {
        return parts.length == 4;
    }

    boolean exact() {
        return Arrays.stream(parts).noneMatch(p -> p == ANY);
    }

    int[] parts() {
        return parts;
    }

    /** Bits per part: 8 for IPv4, 16 for IPv6. */
    int partBits() {
        return isV4() ? 8 : 16;
    }

    /** {@code ::ffff:a.b.c.d} as the IPv4 address {@code a.b.c.d}; any other address unchanged. */
    public IpAddress unmapped() {
        if (isV4() || parts[5] != 0xffff) {
            return this;
        }
        for (int i = 0; i < 5; i++) {
            if (parts[i] != 0) {
                return this;
            }
        }
        return new IpAddress(new int[]{parts[6] >> 8, parts[6] & 0xff, parts[7] >> 8, parts[7] & 0xff});
    }

    /** Dotted quad, or the RFC 5952 short form of IPv6 (lower case, longest zero run as {@code ::}). */
    @Override
    public String toString() {
        if (isV4()) {
            StringBuilder out = new StringBuilder();
            for (int i = 0; i < 4; i++) {
                out.append(i > 0 ? "." : "").append(parts[i] == ANY ? "*" : String.valueOf(parts[i]));
            }
            return out.toString();
        }
        int bestStart = -1;
        int bestLength = 1;
        for (int i = 0; i < 8; ) {
            int j = i;
            while (j < 8 && parts[j] == 0) {
                j++;
            }
            if (j - i > bestLength) {
                bestStart = i;
                bestLength = j - i;
            }
            i = j == i ? i + 1 : j;
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                out.append("::");
                i += bestLength - 1;
                continue;
            }
            if (out.length() > 0 && out.charAt(out.length() - 1) != ':') {
                out.append(':');
            }
            out.append(parts[i] == ANY ? "*" : Integer.toHexString(parts[i]));
        }
        return out.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IpAddress other && Arrays.equals(parts, other.parts);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(parts);
    }
}

package tankard.util;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * One whitelist entry in the forms ST accepts (its ip-matching library): an address with optional
 * wildcard parts ({@code 10.0.*.*}, {@code 2001:db8::*}), a range ({@code 10.0.0.1-10.0.0.9}), a CIDR
 * subnet ({@code 192.168.0.0/16}, {@code fd00::/8}) or an address with a mask ({@code 10.0.0.0/255.0.255.0}).
 * An IPv4 entry never matches an IPv6 address and vice versa.
 */
public final class IpPattern {
    private static final Logger LOG = LoggerFactory.getLogger(IpPattern.class);

    private enum Kind { SINGLE, RANGE, MASK }

    private final String text;
    private final Kind kind;
    private final IpAddress first;
    private final IpAddress second;

    private IpPattern(String text, Kind kind, IpAddress first, IpAddress second) {
        this.text = text;
        this.kind = kind;
        this.first = first;
        this.second = second;
    }

    /** Parses an entry; throws {@link IllegalArgumentException} with the reason when it is not valid. */
    public static IpPattern parse(String text) {
        IpAddress single = IpAddress.parsePattern(text);
        if (single != null) {
            return new IpPattern(text, Kind.SINGLE, single, null);
        }
        String[] range = text.split("-", -1);
        if (range.length != 1) {
            if (range.length != 2) {
                throw new IllegalArgumentException("a range looks like IP-IP");
            }
            IpAddress low = exact(range[0], "the left side of the range");
            IpAddress high = exact(range[1], "the right side of the range");
            if (low.isV4() != high.isV4()) {
                throw new IllegalArgumentException("both sides of a range must be the same kind of address");
            }
            if (compare(low, high) > 0) {
                throw new IllegalArgumentException("the left side of a range must be the lower address");
            }
            return new IpPattern(text, Kind.RANGE, low, high);
        }
        String[] subnet = text.split("/", -1);
        if (subnet.length == 2) {
            IpAddress base = exact(subnet[0], "the subnet address");
            String bits = subnet[1].trim();
            IpAddress mask = bits.matches("\\d{1,3}") ? prefixMask(base, Integer.parseInt(bits)) : IpAddress.parse(bits);
            if (mask == null || mask.isV4() != base.isV4()) {
                throw new IllegalArgumentException("a subnet looks like IP/bits or IP/mask, e.g. 10.0.0.0/8");
            }
            return new IpPattern(text, Kind.MASK, applyMask(base, mask), mask);
        }
        throw new IllegalArgumentException("not an IP address, range or subnet");
    }

    private static IpAddress exact(String text, String what) {
        IpAddress ip = IpAddress.parse(text);
        if (ip == null) {
            throw new IllegalArgumentException(what + " is not a valid IP address");
        }
        return ip;
    }

    private static IpAddress prefixMask(IpAddress base, int bits) {
        int width = base.partBits();
        int[] parts = new int[base.parts().length];
        if (bits > parts.length * width) {
            throw new IllegalArgumentException("a subnet of this kind has at most " + parts.length * width + " bits");
        }
        for (int i = 0; i < parts.length; i++) {
            int own = Math.max(0, Math.min(width, bits - i * width));
            parts[i] = own == 0 ? 0 : ((1 << own) - 1) << (width - own);
        }
        return IpAddress.of(parts);
    }

    private static IpAddress applyMask(IpAddress base, IpAddress mask) {
        int[] parts = new int[base.parts().length];
        for (int i = 0; i < parts.length; i++) {
            parts[i] = base.parts()[i] & mask.parts()[i];
        }
        return IpAddress.of(parts);
    }

    private static int compare(IpAddress a, IpAddress b) {
        for (int i = 0; i < a.parts().length; i++) {
            int c = Integer.compare(a.parts()[i], b.parts()[i]);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    /** The valid entries; invalid ones are skipped with a warning naming the config key, as ST does. */
    public static List<IpPattern> parseAll(List<String> entries, String key) {
        List<IpPattern> out = new ArrayList<>();
        for (String entry : entries) {
            try {
                out.add(parse(entry));
            } catch (IllegalArgumentException e) {
                LOG.warn("Ignoring invalid {} entry '{}': {}", key, entry, e.getMessage());
            }
        }
        return List.copyOf(out);
    }

    public static boolean anyMatches(List<IpPattern> patterns, IpAddress ip) {
        return ip != null && patterns.stream().anyMatch(p -> p.matches(ip));
    }

    public boolean matches(IpAddress ip) {
        if (ip == null || ip.isV4() != first.isV4()) {
            return false;
        }
        int[] given = ip.parts();
        return switch (kind) {
            case SINGLE -> {
                for (int i = 0; i < given.length; i++) {
                    int wanted = first.parts()[i];
                    if (wanted != IpAddress.ANY && wanted != given[i]) {
                        yield false;
                    }
                }
                yield true;
            }
            case RANGE -> compare(first, ip) <= 0 && compare(ip, second) <= 0;
            case MASK -> {
                for (int i = 0; i < given.length; i++) {
                    if ((given[i] & second.parts()[i]) != first.parts()[i]) {
                        yield false;
                    }
                }
                yield true;
            }
        };
    }

    @Override
    public String toString() {
        return text;
    }
}

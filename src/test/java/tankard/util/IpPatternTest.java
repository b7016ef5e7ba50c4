package tankard.util;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IpPatternTest {
    private static boolean matches(String pattern, String ip) {
        return IpPattern.parse(pattern).matches(IpAddress.parse(ip));
    }

    @Test
    void exactAddresses() {
        assertTrue(matches("127.0.0.1", "127.0.0.1"));
        assertFalse(matches("127.0.0.1", "127.0.0.2"));
        assertTrue(matches("::1", "0:0:0:0:0:0:0:1"));
        assertTrue(matches("0001:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8"));
        assertFalse(matches("::1", "::2"));
    }

    @Test
    void ipv4CidrRanges() {
        assertTrue(matches("192.168.0.0/16", "192.168.44.7"));
        assertFalse(matches("192.168.0.0/16", "192.169.0.1"));
        assertTrue(matches("10.0.0.0/8", "10.255.255.255"));
        assertTrue(matches("10.1.2.3/8", "10.9.9.9"), "host bits of the base are ignored");
        assertTrue(matches("172.16.0.0/12", "172.31.0.1"));
        assertFalse(matches("172.16.0.0/12", "172.32.0.1"));
        assertTrue(matches("1.2.3.4/32", "1.2.3.4"));
        assertFalse(matches("1.2.3.4/32", "1.2.3.5"));
        assertTrue(matches("0.0.0.0/0", "8.8.8.8"));
        assertTrue(matches("192.168.1.0/25", "192.168.1.127"));
        assertFalse(matches("192.168.1.0/25", "192.168.1.128"));
    }

    @Test
    void ipv6CidrRanges() {
        assertTrue(matches("fd00::/8", "fd12:3456::1"));
        assertFalse(matches("fd00::/8", "fe80::1"));
        assertTrue(matches("2001:db8::/32", "2001:DB8:ffff::1"));
        assertTrue(matches("2001:db8::/33", "2001:db8:7fff::1"));
        assertFalse(matches("2001:db8::/33", "2001:db8:8000::1"));
        assertTrue(matches("::1/128", "::1"));
    }

    @Test
    void wildcardsRangesAndMasks() {
        assertTrue(matches("192.168.*.*", "192.168.3.4"));
        assertFalse(matches("192.168.*.*", "192.167.3.4"));
        assertTrue(matches("10.*.0.*", "10.5.0.9"));
        assertTrue(matches("2001::*", "2001::abcd"));
        assertTrue(matches("10.0.0.1-10.0.0.9", "10.0.0.9"));
        assertFalse(matches("10.0.0.1-10.0.0.9", "10.0.0.10"));
        assertTrue(matches("10.0.0.0/255.0.255.0", "10.7.0.200"));
        assertFalse(matches("10.0.0.0/255.0.255.0", "10.7.1.200"));
    }

    @Test
    void familiesNeverCrossMatch() {
        assertFalse(matches("127.0.0.1", "::ffff:127.0.0.1"));
        assertFalse(matches("::ffff:127.0.0.1", "127.0.0.1"));
        assertFalse(matches("0.0.0.0/0", "::1"));
        assertFalse(IpPattern.parse("127.0.0.1").matches(null));
    }

    @Test
    void mappedAddressesUnmapToIpv4() {
        IpAddress mapped = IpAddress.parse("::ffff:192.168.1.20");
        assertEquals("192.168.1.20", mapped.unmapped().toString());
        assertTrue(mapped.unmapped().isV4());
        assertEquals(IpAddress.parse("::ffff:c0a8:114"), mapped);
        assertEquals("::1", IpAddress.parse("::1").unmapped().toString());
    }

    @Test
    void printsCompactForms() {
        assertEquals("::1", IpAddress.parse("0:0:0:0:0:0:0:1").toString());
        assertEquals("2001:db8::1:0:0:1", IpAddress.parse("2001:0DB8:0:0:1:0:0:1").toString());
        assertEquals("fe80::", IpAddress.parse("fe80:0:0:0:0:0:0:0").toString());
        assertEquals("1:0:2:3:4:5:6:7", IpAddress.parse("1:0:2:3:4:5:6:7").toString());
        assertEquals("10.0.0.1", IpAddress.parse(" 10.0.0.1 ").toString());
    }

    @Test
    void rejectsWhatIsNotAnAddress() {
        for (String bad : List.of("", "localhost", "256.1.1.1", "1.2.3", "1.2.3.4.5", "10.0.1*.0", "1:2:3:4:5:6:7:8:9",
                "1::2::3", "1:2:3:4::5:6:7:8", "::ffff:1.2.3.*", "1.2.3.4::", "12345::", "fe80::1%eth0")) {
            assertNull(IpAddress.parse(bad), bad);
        }
        for (String bad : List.of("localhost", "10.0.0.0/33", "::/129", "10.0.0.9-10.0.0.1", "10.0.0.1-::1",
                "10.0.0.*/8", "1-2-3", "10.0.0.0/abc", "example.com")) {
            assertThrows(IllegalArgumentException.class, () -> IpPattern.parse(bad), bad);
        }
    }

    @Test
    void whitelistSkipsInvalidEntries() {
        var patterns = IpPattern.parseAll(List.of("nonsense", "10.0.0.0/8"), "whitelist");
        assertEquals(1, patterns.size());
        assertTrue(IpPattern.anyMatches(patterns, IpAddress.parse("10.1.1.1")));
        assertFalse(IpPattern.anyMatches(patterns, null));
    }
}

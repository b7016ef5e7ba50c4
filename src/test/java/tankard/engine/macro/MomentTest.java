package tankard.engine.macro;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** moment.js's en formatting and humanizing; the expected texts are moment's own. */
class MomentTest {
    private static final String FORMAT = "YYYY-MM-DD ddd w ww gggg W GGGG Do DDDD Q hh:mm:ss.SSS a Z X";

    private static ZonedDateTime tokyo(long epochMillis) {
        return Instant.ofEpochMilli(epochMillis).atZone(ZoneId.of("Asia/Tokyo"));
    }

    @Test
    void weeksAndWeekYearsFollowTheLocaleAndIsoRulesAroundNewYear() {
        assertEquals("2021-01-01 Fri 1 01 2021 53 2020 1st 001 1 09:00:00.000 am +09:00 1609459200",
                Moment.format(tokyo(1609459200000L), FORMAT));
        assertEquals("2022-01-01 Sat 1 01 2022 52 2021 1st 001 1 08:59:59.000 am +09:00 1640995199",
                Moment.format(tokyo(1640995199000L), FORMAT));
        assertEquals("2024-12-31 Tue 1 01 2025 1 2025 31st 366 4 09:00:00.000 am +09:00 1735603200",
                Moment.format(tokyo(1735603200000L), FORMAT));
    }

    @Test
    void longDateFormatsAndEscapesExpand() {
        ZonedDateTime time = tokyo(1767225599000L);
        assertEquals("Thursday, January 1, 2026 8:59 AM, 1/1/2026, at Y", Moment.format(time, "LLLL, l, [at] \\Y"));
        assertEquals("ab", Moment.format(time, "[a]\n[b]"));
    }

    @Test
    void humanizeRoundsAsMomentDoes() {
        assertEquals("a few seconds", Moment.humanize(30_000, false));
        assertEquals("a minute", Moment.humanize(50_000, false));
        assertEquals("2 minutes", Moment.humanize(100_000, false));
        assertEquals("an hour", Moment.humanize(3_000_000, false));
        assertEquals("a day", Moment.humanize(80_000_000, false));
        assertEquals("2 months", Moment.humanize(4_000_000_000L, false));
        assertEquals("a year", Moment.humanize(40_000_000_000L, false));
        assertEquals("3 years", Moment.humanize(80_000_000_000L, false));
        assertEquals("in 3 hours", Moment.humanize(3 * 3_600_000, true));
        assertEquals("3 hours ago", Moment.humanize(-3 * 3_600_000, true));
        assertEquals("Invalid date", Moment.humanize(Double.NaN, true));
    }

    @Test
    void isoTextsWithoutOffsetAreLocal() {
        ZoneId zone = ZoneId.of("Asia/Tokyo");
        assertEquals(Instant.parse("2023-01-01T03:00:00Z"), Moment.parseIso("2023-01-01 12:00:00", zone).toInstant());
        assertEquals(Instant.parse("2023-01-01T12:00:00Z"), Moment.parseIso("2023-01-01T12:00Z", zone).toInstant());
        assertNull(Moment.parseIso("yesterday", zone));
    }
}

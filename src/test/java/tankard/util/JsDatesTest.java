package tankard.util;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Expected values are what Node 20's {@code new Date(text).getTime()} answers. */
class JsDatesTest {
    @Test
    void readsTheIsoFormsV8Reads() {
        assertEquals(1720747897123d, JsDates.parse("2024-07-12T01:31:37.123Z"));
        assertEquals(1720747897123d, JsDates.parse("2024-07-12T01:31:37.1234567Z"));
        assertEquals(1720740697123d, JsDates.parse("2024-07-12T01:31:37.123+02:00"));
        assertEquals(1720742400000d, JsDates.parse("2024-07-12"));
        assertEquals(1709337600000d, JsDates.parse("2024-02-31T00:00:00Z"), "day 31 rolls over");
        assertEquals(1704153600000d, JsDates.parse("2024-01-01T24:00:00Z"));
        assertEquals(1704067200500d, JsDates.parse("2024-01-01T00:00:00.5Z"));
        assertEquals(-62167219200000d, JsDates.parse("0000-01-01T00:00:00Z"));
    }

    @Test
    void everythingElseIsNaN() {
        for (String text : new String[] {"2023-6-19T14:20:00", "2024-13-12T01:31:37Z", "2024-02-32T00:00:00Z",
                "2024-01-01T24:00:01Z", "2024-01-01T23:60:00Z", "2024-01-01T00:00:00.Z", "June 19, 2023 2:20pm",
                "garbage", ""}) {
            assertTrue(Double.isNaN(JsDates.parse(text)), text);
        }
        assertTrue(Double.isNaN(JsDates.fromMillis(1e20)));
        assertEquals(8.64e15, JsDates.fromMillis(8.64e15));
    }
}

package tankard.account;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SlugTest {
    @Test
    void slugsLikeSt() {
        // Expected values checked against lodash.deburr-based slugify in Node.
        assertEquals("bob-smith", Slug.of("Bob Smith!"));
        assertEquals("unicode-name", Slug.of("  Ünïcödé  Nämé "));
        assertEquals("istanbul", Slug.of("İstanbul"));
        assertEquals("strasse-aeon-oe-l", Slug.of("Straße Æon Œ Ł"));
        assertEquals("n-x", Slug.of("ŉ x"));
        assertEquals("", Slug.of("日本"));
        assertEquals("a-b", Slug.of("--a--b--"));
        assertEquals("bc", Slug.of("Ǎbc"), "letters outside Latin-1/Extended-A are not deburred");
        assertEquals("xy", Slug.of("x\u0301y"), "combining marks are dropped");
        assertEquals("user-2", Slug.of("User_2"));
    }

    @Test
    void recognisesHandles() {
        assertTrue(Slug.isSlug("default-user"));
        assertFalse(Slug.isSlug("_storage"));
        assertFalse(Slug.isSlug("../x"));
        assertFalse(Slug.isSlug(""));
        assertFalse(Slug.isSlug(null));
    }
}

package tankard.user;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Vectors computed independently with Node's crypto (the primitives ST uses), so ST accounts keep working. */
class PasswordsTest {
    // node -e "crypto.scryptSync('pässword'.normalize('NFC'), 'c2FsdA==', 64, {N:16384,r:8,p:1}).toString('base64')"
    private static final String HASH =
            "/8LIEqKTK30SQFBvX7E+UirN8KNb/bbWeqAog6R8CdlEtkTNVF2nyxVOKRinQUQKa1hCgpS3+Yn/wtkGGgH4Sg==";

    @Test
    void scryptMatchesNode() {
        assertEquals(HASH, Passwords.hash("pässword", "c2FsdA=="));
        // Decomposed input is NFC-normalised first, like ST does.
        assertEquals(HASH, Passwords.hash("pa\u0308ssword", "c2FsdA=="));
    }

    @Test
    void existingAccountPasswordIsRecognised() {
        User alice = new User("alice", "Alice", 1, HASH, "c2FsdA==", false, true);
        assertTrue(Passwords.matches(alice, "pässword"));
        assertFalse(Passwords.matches(alice, "password"));
        assertFalse(Passwords.matches(alice, null));
        assertTrue(Passwords.matches(new User("bob", "Bob", 1, "", "", false, true), "anything"));
    }

    @Test
    void versionTagMatchesNodeShake256() {
        // crypto.createHash('shake256', {outputLength: 8}).update(JSON.stringify([handle, password, salt])).digest('hex')
        assertEquals("7f1526e134d0d4aa", Passwords.versionTag(new User("alice", "Alice", 1, HASH, "c2FsdA==", false, true)));
        assertEquals("ace51448faa4fa71", Passwords.versionTag(User.defaultUser(0)));
        // JSON.stringify escapes quotes and backslashes but leaves U+2028 and non-ASCII as they are.
        assertEquals("6ca4905dc6ea00f4", Passwords.versionTag(new User("béb\"\\", "x", 1, "x\u2028", "s", false, true)));
    }

    @Test
    void newSaltsAreRandomBase64Of16Bytes() {
        String salt = Passwords.newSalt();
        assertEquals(24, salt.length());
        assertNotEquals(salt, Passwords.newSalt());
    }
}

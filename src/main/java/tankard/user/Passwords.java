package tankard.user;

import org.bouncycastle.crypto.digests.SHAKEDigest;
import org.bouncycastle.crypto.generators.SCrypt;
import tankard.json.JsJson;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.text.Normalizer;
import java.util.Base64;
import java.util.HexFormat;

/**
 * ST's account password hashing and session version tags (ST: src/users.js, getPasswordHash, getAccountVersion), so
 * existing accounts log in.
 */
public final class Passwords {
    private static final SecureRandom RANDOM = new SecureRandom();

    private Passwords() {
    }

    /** scrypt(N=16384, r=8, p=1, 64 bytes) of the NFC password, salted with the salt string's UTF-8 bytes. */
    public static String hash(String password, String salt) {
        byte[] secret = Normalizer.normalize(password, Normalizer.Form.NFC).getBytes(StandardCharsets.UTF_8);
        byte[] out = SCrypt.generate(secret, salt.getBytes(StandardCharsets.UTF_8), 16384, 8, 1, 64);
        return Base64.getEncoder().encodeToString(out);
    }

    public static String newSalt() {
        byte[] salt = new byte[16];
        RANDOM.nextBytes(salt);
        return Base64.getEncoder().encodeToString(salt);
    }

    /** True when the account has no password or the given one matches; compared in constant time. */
    public static boolean matches(User user, String password) {
        if (!user.hasPassword()) {
            return true;
        }
        if (password == null) {
            return false;
        }
        return MessageDigest.isEqual(hash(password, user.salt()).getBytes(StandardCharsets.US_ASCII),
                user.password().getBytes(StandardCharsets.US_ASCII));
    }

    /** First 8 bytes of SHAKE-256 over {@code [handle,password,salt]}, hex: changes when the password does. */
    public static String versionTag(User user) {
        var array = JsJson.array().add(user.handle()).add(user.password()).add(user.salt());
        byte[] input = JsJson.compactBytes(array);
        SHAKEDigest shake = new SHAKEDigest(256);
        shake.update(input, 0, input.length);
        byte[] out = new byte[8];
        shake.doFinal(out, 0, out.length);
        return HexFormat.of().formatHex(out);
    }
}

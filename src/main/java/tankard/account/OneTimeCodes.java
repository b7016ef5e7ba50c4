package tankard.account;

import java.security.SecureRandom;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Short-lived codes per account (password recovery, account reset), valid five minutes as in ST. */
final class OneTimeCodes {
    private static final long LIFETIME_MILLIS = 5 * 60 * 1000;
    private static final SecureRandom RANDOM = new SecureRandom();

    private record Code(String value, long expiresAt) {
    }

    private final Map<String, Code> codes = new ConcurrentHashMap<>();

    /** A new random number from {@code min} (inclusive) to {@code max} (exclusive) for the handle. */
    String issue(String handle, int min, int max) {
        String value = String.valueOf(min + RANDOM.nextInt(max - min));
        codes.put(handle, new Code(value, System.currentTimeMillis() + LIFETIME_MILLIS));
        return value;
    }

    /** A new code of {@code digits} random digits (leading zeros kept). */
    String issueDigits(String handle, int digits) {
        StringBuilder value = new StringBuilder();
        for (int i = 0; i < digits; i++) {
            value.append(RANDOM.nextInt(10));
        }
        codes.put(handle, new Code(value.toString(), System.currentTimeMillis() + LIFETIME_MILLIS));
        return value.toString();
    }

    boolean matches(String handle, String given) {
        Code code = codes.get(handle);
        return code != null && given != null && code.expiresAt() > System.currentTimeMillis()
                && java.security.MessageDigest.isEqual(code.value().getBytes(), given.getBytes());
    }

    void forget(String handle) {
        codes.remove(handle);
    }
}

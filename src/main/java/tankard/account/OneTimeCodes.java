package tankard.account;

import tankard.store.TicketStore;

import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Optional;

/**
 * Short-lived codes per account (password recovery, account reset), valid five minutes as in ST, kept in the
 * ticket store so that the node a code was made on need not be the one it is given to.
 */
final class OneTimeCodes {
    private static final long LIFETIME_MILLIS = 5 * 60 * 1000;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final TicketStore tickets;
    /** The ticket kind of these codes. */
    private final String kind;

    OneTimeCodes(TicketStore tickets, String kind) {
        this.tickets = tickets;
        this.kind = kind;
    }

    /** A new random number from {@code min} (inclusive) to {@code max} (exclusive) for the handle. */
    String issue(String handle, int min, int max) {
        return keep(handle, String.valueOf(min + RANDOM.nextInt(max - min)));
    }

    /** A new code of {@code digits} random digits (leading zeros kept). */
    String issueDigits(String handle, int digits) {
        StringBuilder value = new StringBuilder();
        for (int i = 0; i < digits; i++) {
            value.append(RANDOM.nextInt(10));
        }
        return keep(handle, value.toString());
    }

    private String keep(String handle, String code) {
        tickets.put(handle, kind, code, LIFETIME_MILLIS);
        return code;
    }

    /** Whether the given code is the handle's live one, which it uses up: of two requests with it, one wins. */
    boolean use(String handle, String given) {
        Optional<String> code = tickets.find(handle, kind);
        return code.isPresent() && given != null && MessageDigest.isEqual(code.get().getBytes(), given.getBytes())
                && tickets.remove(handle, kind, code.get());
    }
}

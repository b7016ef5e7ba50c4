package tankard.store;

import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What every {@link TicketStore} does, on a clock the test moves. */
public abstract class TicketStoreContract {
    protected final AtomicLong now = new AtomicLong(1_700_000_000_000L);

    /** A store on {@link #now}, made anew over the same place on each call (as another node would). */
    protected abstract TicketStore store();

    @Test
    void aValueIsFoundUntilItLapsesAndAPutReplacesIt() {
        store().put("alice", "code", "1234", 1000);
        assertEquals(Optional.of("1234"), store().find("alice", "code"));
        assertEquals(Optional.empty(), store().find("alice", "other"));
        assertEquals(Optional.empty(), store().find("bob", "code"));
        store().put("alice", "code", "5678", 1000);
        assertEquals(Optional.of("5678"), store().find("alice", "code"));
        now.addAndGet(1000);
        assertEquals(Optional.empty(), store().find("alice", "code"));
    }

    @Test
    void aValueIsRemovedOnceAndOnlyWhileItIsStillThatValue() {
        store().put("alice", "code", "1234", 1000);
        assertFalse(store().remove("alice", "code", "9999"));
        assertTrue(store().remove("alice", "code", "1234"));
        assertFalse(store().remove("alice", "code", "1234"), "used once");
        store().put("alice", "code", "1234", 1000);
        now.addAndGet(1000);
        assertFalse(store().remove("alice", "code", "1234"), "lapsed");
    }

    @Test
    void aKindIsClaimedByOneCallerUntilItsValueLapses() {
        assertTrue(store().claim("alice", "window", "a", 1000));
        assertFalse(store().claim("alice", "window", "b", 1000));
        assertTrue(store().claim("bob", "window", "c", 1000));
        assertEquals(Optional.of("a"), store().find("alice", "window"));
        now.addAndGet(1000);
        assertTrue(store().claim("alice", "window", "d", 1000));
        assertEquals(Optional.of("d"), store().find("alice", "window"));
    }
}

package tankard.store;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/** The {@link TicketStore} of one node: its memory, as ST keeps these. */
public final class MemoryTicketStore implements TicketStore {
    private record Ticket(String value, long expiresMs) {
    }

    private final Map<String, Ticket> tickets = new ConcurrentHashMap<>();
    private final LongSupplier clock;

    public MemoryTicketStore(LongSupplier clock) {
        this.clock = clock;
    }

    @Override
    public void put(String user, String kind, String value, long lifetimeMs) {
        long now = clock.getAsLong();
        tickets.values().removeIf(ticket -> ticket.expiresMs() <= now);
        tickets.put(key(user, kind), new Ticket(value, now + lifetimeMs));
    }

    @Override
    public boolean claim(String user, String kind, String value, long lifetimeMs) {
        long now = clock.getAsLong();
        Ticket fresh = new Ticket(value, now + lifetimeMs);
        return tickets.compute(key(user, kind),
                (key, old) -> old == null || old.expiresMs() <= now ? fresh : old) == fresh;
    }

    @Override
    public Optional<String> find(String user, String kind) {
        Ticket ticket = tickets.get(key(user, kind));
        return ticket == null || ticket.expiresMs() <= clock.getAsLong() ? Optional.empty()
                : Optional.of(ticket.value());
    }

    @Override
    public boolean remove(String user, String kind, String value) {
        Ticket ticket = tickets.get(key(user, kind));
        return ticket != null && ticket.value().equals(value) && ticket.expiresMs() > clock.getAsLong()
                && tickets.remove(key(user, kind), ticket);
    }

    private static String key(String user, String kind) {
        return user + '\0' + kind;
    }
}

package tankard.store;

class MemoryTicketStoreTest extends TicketStoreContract {
    private final MemoryTicketStore store = new MemoryTicketStore(now::get);

    @Override
    protected TicketStore store() {
        return store; // one node's memory: the same store each time
    }
}

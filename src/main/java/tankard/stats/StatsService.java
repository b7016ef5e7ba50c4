package tankard.stats;

import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.JsJson;
import tankard.json.JsonFiles;
import tankard.store.DocumentStore;
import tankard.store.DocumentStore.Folder;

import java.io.IOException;
import java.util.function.LongSupplier;

/**
 * The user's {@code stats.json} (ST: src/endpoints/stats.js). The frontend keeps the statistics and posts the whole
 * object after each message; Tankard stores it straight away (compact) instead of ST's in-memory copy flushed every
 * 5 minutes, so nothing is lost on a crash. An update replaces the document whole, as ST's {@code setCharStats}
 * does, so it needs no read first. Where ST rebuilds a missing or unreadable file at start-up, Tankard answers a
 * read with the rebuilt statistics but stores nothing (reading never changes a data root); the frontend's next
 * update stores them. Blocking.
 */
public final class StatsService {
    static final String FILE = "stats.json";
    private final DocumentStore documents;
    private final StatsRebuilder rebuilder;
    private final LongSupplier clock;

    public StatsService(DocumentStore documents, StatsRebuilder rebuilder, LongSupplier clock) {
        this.documents = documents;
        this.rebuilder = rebuilder;
        this.clock = clock;
    }

    /** The stored statistics, or those rebuilt from the chats when there are none (or they are not an object). */
    public ObjectNode get(String user) throws IOException {
        if (documents.read(user, Folder.ROOT, FILE).map(JsonFiles::tryParse).orElse(null)
                instanceof ObjectNode stats) {
            return stats;
        }
        return rebuilder.rebuild(user, clock.getAsLong());
    }

    /** Rebuilds the statistics from the chats and stores them. */
    public void recreate(String user) throws IOException {
        store(user, rebuilder.rebuild(user, clock.getAsLong()));
    }

    /** Stores the frontend's statistics, stamped now (ST: setCharStats). */
    public void update(String user, ObjectNode stats) {
        stats.put("timestamp", clock.getAsLong());
        store(user, stats);
    }

    private void store(String user, ObjectNode stats) {
        documents.write(user, Folder.ROOT, FILE, JsJson.compactBytes(stats));
    }
}

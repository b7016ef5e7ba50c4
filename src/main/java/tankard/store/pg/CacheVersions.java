package tankard.store.pg;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The versions of what this node keeps in memory from the database, so that no cache outlives another node's write
 * (V13__cache_versions.sql; docs/architecture.md, "Caches across nodes"). A write of cached data moves its topic's
 * version on in its own transaction ({@link #bump}), which also notifies {@value #CHANNEL} at commit. A cache
 * ({@link #cache}) loads its data after reading the version, and holds that version; this node reads the held versions
 * again when a notification names their topic, every poll interval, and each time its listening connection is
 * (re)established, and has the caches whose version moved on load again. A notification is only a wake-up: a lost one
 * costs at most one poll interval.
 */
public final class CacheVersions implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CacheVersions.class);
    /** The channel of the notifications; a payload is a topic ({@code kind/handle}), never data. */
    public static final String CHANNEL = "tankard_changes";
    /** How long the listening connection waits before it tries again to reach the database. */
    private static final long RECONNECT_DELAY_MS = 1000;
    /** A held version no database version equals: a cache not loaded yet, or whose load failed, loads at a check. */
    private static final long NONE = -1;

    private static final String BUMP = "WITH bumped AS (INSERT INTO cache_versions AS v (handle, kind, version)"
            + " VALUES ($1, $2, 1) ON CONFLICT (handle, kind) DO UPDATE SET version = v.version + 1 RETURNING version)"
            + " SELECT version FROM bumped, pg_notify('" + CHANNEL + "', $3)";
    private static final String READ = "SELECT handle, kind, version FROM cache_versions"
            + " WHERE (handle, kind) IN (SELECT * FROM unnest($1::text[], $2::text[]))";

    /**
     * What a cache holds: data of a user ({@code handle}), or of no one user ({@code ""}), of a kind. A handle is one
     * path segment and a kind a constant without {@code /}, so that the payload {@code kind/handle} names it.
     */
    public record Topic(String handle, String kind) {
        String payload() {
            return kind + "/" + handle;
        }

        static Topic ofPayload(String payload) {
            int slash = payload.indexOf('/');
            return slash < 0 ? null : new Topic(payload.substring(slash + 1), payload.substring(0, slash));
        }
    }

    /** One cache of a topic's data, and the version it holds. */
    public final class Cache {
        private final Topic topic;
        private final Runnable load;
        private volatile long version = NONE;

        private Cache(Topic topic, Runnable load) {
            this.topic = topic;
            this.load = load;
        }

        /**
         * Loads the data again, and holds the version read before: a write committed meanwhile leaves the cache
         * behind the database, so that the next check loads it again. One load at a time, so the last is the newest.
         * Blocking.
         */
        public synchronized void reload() {
            long now = read(topic);
            load.run();
            version = now;
        }
    }

    private final Vertx vertx;
    private final PgDatabase db;
    private final PgConnectOptions connect;
    /** The connection that listens, while it does. */
    private volatile PgConnection listening;
    /** One thread: checks and the holders' reloads run one at a time, off the event loops. */
    private final WorkerExecutor worker;
    private final long poller;
    private final Set<Cache> caches = ConcurrentHashMap.newKeySet();
    /** Topics named by notifications since the last check. */
    private final Set<Topic> named = ConcurrentHashMap.newKeySet();
    /** The next check reads every held version. */
    private final AtomicBoolean checkAll = new AtomicBoolean();
    private final AtomicBoolean checkScheduled = new AtomicBoolean();
    private volatile boolean closed;

    private CacheVersions(Vertx vertx, PgDatabase db, PgConnectOptions connect, long pollMs) {
        this.vertx = vertx;
        this.db = db;
        this.connect = connect;
        this.worker = vertx.createSharedWorkerExecutor("cache-versions", 1);
        this.poller = vertx.setPeriodic(pollMs, tick -> wake(null));
    }

    /** Starts listening for the other nodes' writes and checking every {@code pollMs}. */
    static CacheVersions start(Vertx vertx, PgDatabase db, PgConnectOptions connect, long pollMs) {
        CacheVersions versions = new CacheVersions(vertx, db, connect, pollMs);
        versions.listen();
        return versions;
    }

    /**
     * Connects and listens; whenever that connection fails or is lost, tries again after the reconnect delay. Its own
     * loop rather than the client's {@code PgSubscriber}, whose first connect is not retried and which forgets its
     * channels when a retry fails at the wrong moment, leaving a node that never hears again.
     */
    private void listen() {
        if (closed) {
            return;
        }
        PgConnection.connect(vertx, connect).onComplete(connected -> {
            if (connected.failed()) {
                listenAgainSoon(connected.cause());
                return;
            }
            PgConnection conn = connected.result();
            listening = conn;
            if (closed) { // close() may have run before it was set
                conn.close();
                return;
            }
            conn.notificationHandler(notification -> {
                Topic topic = Topic.ofPayload(notification.getPayload());
                if (topic != null) {
                    wake(topic);
                }
            });
            conn.closeHandler(lost -> {
                listening = null;
                listenAgainSoon(new IllegalStateException("the listening connection was lost"));
            });
            // a fixed statement that cannot be prepared; once it holds, check what was missed meanwhile
            conn.query("LISTEN " + CHANNEL).execute().onComplete(listened -> {
                if (listened.succeeded()) {
                    wake(null);
                } else {
                    conn.close(); // its close handler tries again
                }
            });
        });
    }

    private void listenAgainSoon(Throwable cause) {
        if (closed) {
            return;
        }
        LOG.warn("Cannot listen for other nodes' changes now ({}); trying again", cause.toString());
        vertx.setTimer(RECONNECT_DELAY_MS, t -> listen());
    }

    /**
     * In a transaction that writes data of the topic: moves its version on, and notifies the other nodes when the
     * transaction commits (NOTIFY is transactional). Answers the new version.
     */
    public static Future<Long> bump(SqlConnection conn, Topic topic) {
        return conn.preparedQuery(BUMP).execute(Tuple.of(topic.handle(), topic.kind(), topic.payload()))
                .map(rows -> rows.iterator().next().getLong(0));
    }

    /** The topic's version now (0 when it was never written). Read it before the data it versions. Blocking. */
    public long read(Topic topic) {
        return read(List.of(topic)).getOrDefault(topic, 0L);
    }

    /**
     * A cache of the topic's data, kept as long as this database. Nothing is loaded until its first
     * {@link Cache#reload}; from then on {@code load} runs again, on this node's checking thread (where it may block),
     * whenever the database's version of the topic is not the one the cache holds.
     */
    public Cache cache(Topic topic, Runnable load) {
        Cache cache = new Cache(topic, load);
        caches.add(cache);
        return cache;
    }

    /** Checks soon: the named topic, or with null every held one. */
    private void wake(Topic topic) {
        if (topic == null) {
            checkAll.set(true);
        } else {
            named.add(topic);
        }
        if (!closed && checkScheduled.compareAndSet(false, true)) {
            worker.executeBlocking(() -> {
                check();
                return null;
            }, false);
        }
    }

    /** Reads the versions of what woke it and has the caches whose version moved on load again. */
    private void check() {
        checkScheduled.set(false); // a wake from now on schedules another check
        Set<Topic> topics = new HashSet<>();
        for (Topic topic : named) {
            named.remove(topic);
            topics.add(topic);
        }
        boolean all = checkAll.getAndSet(false);
        List<Cache> checked = caches.stream().filter(cache -> all || topics.contains(cache.topic)).toList();
        if (checked.isEmpty()) {
            return;
        }
        Map<Topic, Long> versions;
        try {
            versions = read(checked.stream().map(cache -> cache.topic).distinct().toList());
        } catch (RuntimeException e) {
            LOG.debug("Cannot check the cached versions now: {}", e.toString());
            checkAllSoon(); // a pool whose connections were cut (the listener's too) may need a moment
            return;
        }
        for (Cache cache : checked) {
            if (cache.version != versions.getOrDefault(cache.topic, 0L)) {
                cache.version = NONE; // what it holds is behind, until a load succeeds
                try {
                    cache.reload();
                } catch (RuntimeException e) {
                    LOG.warn("Cannot load what changed in the database ({}): {}", cache.topic.payload(), e.toString());
                    checkAllSoon();
                }
            }
        }
    }

    /** Checks every held version again after the reconnect delay, rather than at the next poll only. */
    private void checkAllSoon() {
        if (!closed) {
            vertx.setTimer(RECONNECT_DELAY_MS, t -> wake(null));
        }
    }

    private Map<Topic, Long> read(List<Topic> topics) {
        String[] handles = topics.stream().map(Topic::handle).toArray(String[]::new);
        String[] kinds = topics.stream().map(Topic::kind).toArray(String[]::new);
        Tuple keys = Tuple.tuple().addArrayOfString(handles).addArrayOfString(kinds);
        return db.call(c -> c.preparedQuery(READ).execute(keys).map(rows -> {
            Map<Topic, Long> versions = new HashMap<>();
            for (Row row : rows) {
                versions.put(new Topic(row.getString(0), row.getString(1)), row.getLong(2));
            }
            return versions;
        }));
    }

    @Override
    public void close() {
        closed = true;
        vertx.cancelTimer(poller);
        PgConnection conn = listening;
        if (conn != null) {
            conn.close();
        }
        worker.close();
    }
}

package tankard.store.pg;

import io.netty.channel.ConnectTimeoutException;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VertxException;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgException;
import io.vertx.pgclient.SslMode;
import io.vertx.sqlclient.ClosedConnectionException;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationState;
import tankard.config.ConfigException;
import tankard.config.TankardConfig;
import tankard.core.Refusal;
import tankard.util.SafeNames;
import tankard.util.Sanitize;

import java.io.UncheckedIOException;
import java.nio.file.FileSystemException;
import java.net.ConnectException;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The PostgreSQL database of {@code storage: postgres}: its schema (Flyway migrations under
 * {@code db/migration}, applied at start under Flyway's lock, so nodes that start together migrate once) and a
 * pool of the reactive client. Stores are blocking interfaces called from worker threads: {@link #call} and
 * {@link #transaction} run their work on an event-loop context of the database's own and wait for it, so the
 * query's callbacks never queue behind the very worker that waits for them.
 */
public final class PgDatabase implements AutoCloseable {
    /** How long a store call waits for the database before it answers 503. */
    private static final long CALL_TIMEOUT_SECONDS = 60;
    /** How long taking a connection from the pool may wait (all busy, or the server unreachable). */
    private static final int CONNECT_TIMEOUT_MS = 10_000;

    /** How long after the database last answered a connection is used without a check. */
    private static final long TRUSTED_NANOS = TimeUnit.SECONDS.toNanos(2);
    /** How long a connection's check may take before the connection is given up. */
    private static final long CHECK_TIMEOUT_MS = 2_000;
    /** SQLSTATE class of integrity constraint violations, which stores use as answers (a name taken). */
    private static final String CONSTRAINT_CLASS = "23";

    private final Pool pool;
    /**
     * The connections that hold advisory locks ({@link PgLocks}) while their unit of work runs on {@link #pool}: a
     * pool of their own, so that lock holders waiting for a connection to work on never take them all.
     */
    private final Pool lockPool;
    /** How many connections a call checks at most: every pooled one, and then a new one. */
    private final int checks;
    private final Context context;
    /** When a call last succeeded; read and written on the database's context only. */
    private long lastAnswerNanos;
    private final String description;
    /** Set once at open, right after the pool: the caches' versions need calls. */
    private CacheVersions versions;
    /** Calls refused because the database did not answer (the 503s), for the metrics. */
    private final LongAdder unanswered = new LongAdder();
    /** Statements the database failed with an error other than a constraint's, for the metrics. */
    private final LongAdder failedStatements = new LongAdder();

    private PgDatabase(Pool pool, Pool lockPool, int poolSize, Context context, String description) {
        this.pool = pool;
        this.lockPool = lockPool;
        this.checks = poolSize + 1;
        this.context = context;
        this.description = description;
    }

    /**
     * Migrates the database to this Tankard's schema and opens the pool; blocking. A database that cannot be
     * reached, refuses the login, or has a schema newer than this code stops start-up with a
     * {@link ConfigException} whose one line names the setting to look at.
     */
    public static PgDatabase open(Vertx vertx, TankardConfig.Postgres settings) {
        migrate(settings);
        PgConnectOptions connect = new PgConnectOptions()
                .setHost(settings.host())
                .setPort(settings.port())
                .setDatabase(settings.database())
                .setUser(settings.user())
                .setPassword(settings.password())
                .setPipeliningLimit(256)
                .setCachePreparedStatements(true)
                .setSslMode(SslMode.of(settings.sslMode()));
        if (settings.sslRootCert() != null) {
            connect.setSslOptions(connect.getSslOptions().setTrustOptions(
                    new PemTrustOptions().addCertPath(settings.sslRootCert().toString())));
        }
        if ("verify-full".equals(settings.sslMode())) {
            connect.getSslOptions().setHostnameVerificationAlgorithm("HTTPS");
        }
        PoolOptions poolOptions = new PoolOptions()
                .setMaxSize(settings.poolSize())
                .setConnectionTimeout(CONNECT_TIMEOUT_MS)
                .setConnectionTimeoutUnit(TimeUnit.MILLISECONDS)
                .setIdleTimeout(5)
                .setIdleTimeoutUnit(TimeUnit.MINUTES)
                .setName("tankard-pg")
                .setShared(false);
        Pool pool = PgBuilder.pool().with(poolOptions)
                .with(new NetClientOptions().setConnectTimeout(CONNECT_TIMEOUT_MS)).connectingTo(connect).using(vertx).build();
        Pool lockPool = PgBuilder.pool().with(new PoolOptions(poolOptions).setName("tankard-pg-locks")
                        .setMaxSize(lockPoolSize(settings.poolSize())))
                .with(new NetClientOptions().setConnectTimeout(CONNECT_TIMEOUT_MS)).connectingTo(connect)
                .using(vertx).build();
        PgDatabase db = new PgDatabase(pool, lockPool, settings.poolSize(),
                ((VertxInternal) vertx).createEventLoopContext(), settings.describe());
        try {
            db.call(client -> client.preparedQuery("SELECT 1").execute());
        } catch (RuntimeException e) {
            db.close();
            throw new ConfigException("tankard.postgres: cannot use the database " + settings.describe() + ": "
                    + rootMessage(e));
        }
        db.versions = CacheVersions.start(vertx, db, connect, TimeUnit.SECONDS.toMillis(settings.cacheCheckSeconds()));
        return db;
    }

    /** The connections that hold locks: half as many as work, at least two. */
    static int lockPoolSize(int poolSize) {
        return Math.max(2, poolSize / 2);
    }

    /** The versions of what this node caches from the database, checked against other nodes' writes. */
    public CacheVersions versions() {
        return versions;
    }

    /** Applies the migrations this code has; refuses a database that has more. */
    private static void migrate(TankardConfig.Postgres settings) {
        Flyway flyway = Flyway.configure(PgDatabase.class.getClassLoader())
                .dataSource(jdbcUrl(settings), settings.user(), settings.password())
                .locations("classpath:db/migration")
                .failOnMissingLocations(true)
                .connectRetries(0)
                .load();
        try {
            MigrationInfo[] future = Arrays.stream(flyway.info().all())
                    .filter(m -> m.getState() == MigrationState.FUTURE_SUCCESS
                            || m.getState() == MigrationState.FUTURE_FAILED)
                    .toArray(MigrationInfo[]::new);
            if (future.length > 0) {
                throw new ConfigException("tankard.postgres: the database " + settings.describe()
                        + " has schema version " + future[future.length - 1].getVersion()
                        + ", newer than this Tankard knows (" + latestKnown(flyway) + "): run a newer Tankard,"
                        + " or restore the backup taken before the upgrade");
            }
            flyway.migrate();
        } catch (FlywayException e) {
            throw new ConfigException("tankard.postgres: cannot use the database " + settings.describe() + ": "
                    + rootMessage(e));
        }
    }

    private static String latestKnown(Flyway flyway) {
        return Arrays.stream(flyway.info().all())
                .filter(m -> m.getState() != MigrationState.FUTURE_SUCCESS && m.getState() != MigrationState.FUTURE_FAILED)
                .reduce((a, b) -> b).map(m -> m.getVersion().toString()).orElse("none");
    }

    private static String jdbcUrl(TankardConfig.Postgres settings) {
        StringBuilder url = new StringBuilder("jdbc:postgresql://").append(settings.host()).append(':')
                .append(settings.port()).append('/').append(settings.database())
                .append("?sslmode=").append(settings.sslMode())
                .append("&connectTimeout=").append(CONNECT_TIMEOUT_MS / 1000)
                .append("&ApplicationName=tankard");
        if (settings.sslRootCert() != null) {
            url.append("&sslrootcert=").append(settings.sslRootCert());
        }
        return url.toString();
    }

    /** One unit of work on a pooled connection (a single statement, or several without a transaction). */
    public <T> T call(Function<SqlClient, Future<T>> work) {
        return await(() -> unit(work));
    }

    private <T> Future<T> unit(Function<SqlClient, Future<T>> work) {
        return checkedConnection(pool, checks)
                .compose(conn -> started(work, conn).andThen(done -> release(conn, done.cause())));
    }

    /**
     * {@link #call} for a caller that must not block (an event loop, such as the security chain's): the answer
     * completes on the caller's context, and a failure of the database itself is the same 503 refusal.
     */
    public <T> Future<T> ask(Function<SqlClient, Future<T>> work) {
        Context caller = Vertx.currentContext();
        Promise<T> answer = Promise.promise();
        context.runOnContext(v -> unit(work).timeout(CALL_TIMEOUT_SECONDS, TimeUnit.SECONDS).onComplete(done -> {
            if (done.succeeded()) {
                lastAnswerNanos = System.nanoTime();
            }
            Runnable settle = () -> {
                if (done.succeeded()) {
                    answer.complete(done.result());
                } else {
                    answer.fail(isConnectionFailure(done.cause()) ? unavailable() : done.cause());
                }
            };
            if (caller == null) {
                settle.run();
            } else {
                caller.runOnContext(x -> settle.run());
            }
        }));
        return answer.future();
    }

    /**
     * The server's value of that name ({@code server_values}), which every node uses alike: made by the first node
     * that asks, from what {@code proposed} gives it, and the same for every node after; two nodes asking at once
     * get the same one. Blocking.
     */
    public String serverValue(String name, Supplier<String> proposed) {
        String value = proposed.get();
        return call(c -> c.preparedQuery("INSERT INTO server_values (name, value) VALUES ($1, $2)"
                        + " ON CONFLICT (name) DO NOTHING").execute(Tuple.of(name, value))
                .compose(inserted -> c.preparedQuery("SELECT value FROM server_values WHERE name = $1")
                        .execute(Tuple.of(name)))
                .map(rows -> rows.iterator().next().getString(0)));
    }

    /** One unit of work in one transaction: committed when the work's future succeeds, else rolled back. */
    public <T> T transaction(Function<SqlConnection, Future<T>> work) {
        return await(() -> checkedConnection(pool, checks).compose(conn -> conn.begin()
                .compose(tx -> started(work, conn).compose(
                        result -> tx.commit().map(result),
                        failure -> tx.rollback().transform((v, e) -> Future.<T>failedFuture(failure))))
                .andThen(done -> release(conn, done.cause()))));
    }

    /**
     * The work's future; a work that throws before it has one (a name refused while its statement's arguments are
     * made) fails it, so the connection still goes back to the pool.
     */
    private static <C, T> Future<T> started(Function<C, Future<T>> work, C conn) {
        try {
            return work.apply(conn);
        } catch (RuntimeException e) {
            return Future.failedFuture(e);
        }
    }

    /**
     * One transaction held across several blocking calls, for work that streams (a chat read window by window, rows
     * inserted in batches read from a file): the caller does its own I/O between the calls, never on the
     * database's context. Close it to give the connection back (rolled back unless committed).
     */
    public Session session() {
        return session(pool);
    }

    /** A {@link #session} on a connection of the lock pool, for holding transaction-scoped advisory locks. */
    Session lockSession() {
        return session(lockPool);
    }

    private Session session(Pool from) {
        SqlConnection conn = await(() -> checkedConnection(from, checks));
        Session session = new Session(conn);
        try {
            session.call(c -> c.query("BEGIN").execute());
        } catch (RuntimeException e) {
            session.close();
            throw e;
        }
        return session;
    }

    /** See {@link #session}. Used by one thread at a time. */
    public final class Session implements AutoCloseable {
        private final SqlConnection conn;
        /** The connection was lost: it must not go back to the pool. */
        private volatile Throwable lost;
        private boolean ended;

        private Session(SqlConnection conn) {
            this.conn = conn;
        }

        /** One step of the transaction. A failed step leaves the transaction aborted: close it. */
        public <T> T call(Function<SqlConnection, Future<T>> work) {
            if (ended) {
                throw new IllegalStateException("the session is closed");
            }
            return await(() -> work.apply(conn).onFailure(e -> {
                if (isLost(e)) {
                    lost = e;
                }
            }));
        }

        public void commit() {
            call(c -> c.query("COMMIT").execute());
            end();
        }

        @Override
        public void close() {
            if (ended) {
                return;
            }
            try {
                if (lost == null) {
                    call(c -> c.query("ROLLBACK").execute());
                }
            } catch (RuntimeException e) {
                // the connection is gone, and its transaction with it
            } finally {
                end();
            }
        }

        private void end() {
            ended = true;
            context.runOnContext(v -> release(conn, lost));
        }
    }

    /**
     * A connection from the pool that answers. The pool drops a connection when its socket closes, but learns of
     * it only later, and never checks one it hands out: after a quiet spell (when a restart or a cut of the
     * database goes unseen) each connection is asked {@code SELECT 1} first, and one that does not answer is
     * closed and the next one taken.
     */
    private Future<SqlConnection> checkedConnection(Pool from, int tries) {
        return from.getConnection().compose(conn -> {
            if (System.nanoTime() - lastAnswerNanos < TRUSTED_NANOS) {
                return Future.succeededFuture(conn);
            }
            return conn.preparedQuery("SELECT 1").execute().timeout(CHECK_TIMEOUT_MS, TimeUnit.MILLISECONDS)
                    .map(rows -> {
                        lastAnswerNanos = System.nanoTime();
                        return conn;
                    })
                    .recover(e -> {
                        release(conn, e);
                        return tries > 1 && isConnectionFailure(e) ? checkedConnection(from, tries - 1)
                                : Future.failedFuture(e);
                    });
        });
    }

    /**
     * Runs the work on the database's event-loop context and waits for it. A failure of the database itself
     * (unreachable, connection lost, no connection free in time) is a 503 refusal; a refusal or an error of the
     * work's own passes through.
     */
    private <T> T await(Supplier<Future<T>> work) {
        if (Context.isOnEventLoopThread()) {
            throw new IllegalStateException("a store call blocks: not on an event loop");
        }
        CompletableFuture<T> result = new CompletableFuture<>();
        context.runOnContext(v -> {
            Future<T> future;
            try {
                future = work.get();
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
                return;
            }
            future.onComplete(value -> {
                lastAnswerNanos = System.nanoTime();
                result.complete(value);
            }, result::completeExceptionally);
        });
        try {
            return result.get(CALL_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unavailable();
        } catch (TimeoutException e) {
            throw unavailable();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (isConnectionFailure(cause)) {
                throw unavailable();
            }
            if (cause instanceof PgException failed && !String.valueOf(failed.getSqlState()).startsWith(CONSTRAINT_CLASS)) {
                failedStatements.increment();
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(cause);
        }
    }

    /**
     * Gives a connection back to the pool, unless it was lost: the pool has dropped that one already, and closing
     * it would hand it back to the pool for the next call to fail on.
     */
    private static void release(SqlConnection conn, Throwable failure) {
        if (!isLost(failure)) {
            conn.close();
        }
    }

    /**
     * Whether the failure is the connection's loss: it closed under the statement, or had closed before it (a
     * session's next step after a cut, which the client fails without a {@link ClosedConnectionException}).
     */
    private static boolean isLost(Throwable failure) {
        return failure instanceof ClosedConnectionException || failure instanceof VertxException
                && String.valueOf(failure.getMessage()).startsWith("Connection is not active now");
    }

    private Refusal unavailable() {
        unanswered.increment();
        return new Refusal(Refusal.Kind.UNAVAILABLE, "The database is not answering; try again in a moment");
    }

    /** How many calls were refused with 503 because the database did not answer, since the start. */
    public long unansweredCalls() {
        return unanswered.sum();
    }

    /** How many statements the database failed, constraint violations aside, since the start. */
    public long failedStatements() {
        return failedStatements.sum();
    }

    /**
     * Whether the database answers a query now, within a connection check's time: the readiness check of
     * {@code /health/ready}. Non-blocking; the schema is this code's since {@link #open} migrated it.
     */
    public Future<Void> ping() {
        return pool.preparedQuery("SELECT 1").execute().timeout(CHECK_TIMEOUT_MS, TimeUnit.MILLISECONDS).mapEmpty();
    }

    /**
     * Whether PostgreSQL's text can hold the string: it cannot hold U+0000, which a request may send in a name. No
     * row is named so, so a store answers such a name as not there instead of asking the database.
     */
    public static boolean storable(String text) {
        return text.indexOf('\0') < 0;
    }

    /** A file system's limit on a name, in UTF-8 bytes. */
    private static final int FILE_NAME_BYTES = 255;

    /**
     * The name of a row that stands for a file (a card, a chat): one the file store could not hold fails here as it
     * fails there, with the file system's "File name too long" (a 400 on every route, tankard.http.FailureHandler),
     * so that both stores refuse the same requests and what the database holds can always be exported to files.
     * A name that is written must leave room for the file store's temp suffix too
     * ({@link tankard.util.SafeNames#MAX_NAME_BYTES}).
     */
    public static String fileName(String name, boolean written) {
        int limit = written ? SafeNames.MAX_NAME_BYTES : FILE_NAME_BYTES;
        if (Sanitize.utf8Length(name) > limit) {
            throw new UncheckedIOException(new FileSystemException(name, null, "File name too long"));
        }
        return name;
    }

    /** Whether the failure is the database's absence rather than an answer of it. */
    static boolean isConnectionFailure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (isLost(t) || t instanceof ConnectException
                    || t instanceof ConnectTimeoutException || t instanceof java.util.concurrent.TimeoutException
                    || t instanceof java.io.IOException
                    || t instanceof VertxException && String.valueOf(t.getMessage()).contains("Timeout")) {
                return true;
            }
        }
        return false;
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return message.lines().findFirst().orElse(message).strip();
    }

    /** For messages: the database, without its password. */
    @Override
    public String toString() {
        return description;
    }

    @Override
    public void close() {
        if (versions != null) { // null when the database did not answer at open
            versions.close();
        }
        lockPool.close();
        pool.close();
    }
}

package tankard.testing;

import tankard.config.TankardConfig;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.UUID;

/**
 * A scratch database on the machine's PostgreSQL (127.0.0.1:5432 unless {@code TANKARD_TEST_PG_HOST},
 * {@code TANKARD_TEST_PG_PORT}, {@code TANKARD_TEST_PG_USER} / {@code PGUSER} and {@code PGPASSWORD} say
 * otherwise), made empty for one test and dropped after it. Tests that need it fail, never skip, when the server
 * does not answer: {@code .ci/run} starts it.
 */
public final class PgScratch implements AutoCloseable {
    private static final Map<String, String> ENV = System.getenv();
    public static final String HOST = ENV.getOrDefault("TANKARD_TEST_PG_HOST", "127.0.0.1");
    public static final int PORT = Integer.parseInt(ENV.getOrDefault("TANKARD_TEST_PG_PORT", "5432"));
    public static final String USER = ENV.getOrDefault("TANKARD_TEST_PG_USER", ENV.getOrDefault("PGUSER", "postgres"));
    public static final String PASSWORD = ENV.getOrDefault("PGPASSWORD", "");

    public final String database;

    private PgScratch(String database) {
        this.database = database;
    }

    /** Creates an empty database of a name of its own. */
    public static PgScratch create() {
        String name = "tankard_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        admin("CREATE DATABASE " + name);
        return new PgScratch(name);
    }

    /** The settings of a Tankard on this database. */
    public TankardConfig.Postgres settings() {
        return new TankardConfig.Postgres(HOST, PORT, database, USER, PASSWORD, 8, "disable", null);
    }

    /** The environment that puts a Tankard's data in this database (it wins over config.yaml). */
    public Map<String, String> environment() {
        return Map.of("SILLYTAVERN_TANKARD_STORAGE", "postgres", "SILLYTAVERN_TANKARD_POSTGRES_HOST", HOST,
                "SILLYTAVERN_TANKARD_POSTGRES_PORT", String.valueOf(PORT), "SILLYTAVERN_TANKARD_POSTGRES_DATABASE", database,
                "SILLYTAVERN_TANKARD_POSTGRES_USER", USER, "SILLYTAVERN_TANKARD_POSTGRES_PASSWORD", PASSWORD);
    }

    /** A JDBC connection to the scratch database, for tests that look at rows or cut connections. */
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(url(database), USER, PASSWORD);
    }

    /** Runs one statement in the scratch database. */
    public void execute(String sql) {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    /** Ends every other session on the scratch database, as a database restart or a network cut would. */
    public void terminateConnections() {
        admin("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '" + database
                + "' AND pid <> pg_backend_pid()");
    }

    @Override
    public void close() {
        admin("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
    }

    private static void admin(String sql) {
        try (Connection c = DriverManager.getConnection(url("postgres"), USER, PASSWORD);
             Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL must answer on " + HOST + ":" + PORT + " as " + USER
                    + " for this test (.ci/run starts it): " + e.getMessage(), e);
        }
    }

    private static String url(String database) {
        return "jdbc:postgresql://" + HOST + ":" + PORT + "/" + database;
    }
}

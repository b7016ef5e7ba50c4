package tankard;

import io.vertx.core.Vertx;
import io.vertx.sqlclient.Tuple;
import tankard.config.ConfigException;
import tankard.config.ConfigLoader;
import tankard.config.TankardConfig;
import tankard.store.pg.PgDatabase;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * {@code tankard import-data --from DATA_ROOT} loads an ST data root into the database that config.yaml names
 * ({@code storage: postgres}); {@code tankard export-data --to DIR} writes the database's data back out as an ST
 * data root. Both take the server's options ({@code --configPath}, {@code --dataRoot} …), refuse a target that
 * holds data unless {@code --force}, and finish an earlier run that was cut short. Exit status 0 when done, 1 when
 * it failed, 2 for bad arguments or a refused target.
 */
final class DataCommand {
    static final String USAGE = """
            Usage: tankard import-data --from DATA_ROOT [--force] [server options: --configPath FILE ...]
                   tankard export-data --to DIR [--force] [server options: --configPath FILE ...]
              import-data  loads every user of an ST data root into the database of config.yaml (storage: postgres)
              export-data  writes every user of that database out as an ST data root
              --force      import into a database that holds data already (same names are replaced),
                           or export into a folder that is not empty
            """;
    /** Left in an export's folder until the export is done: a folder holding it may be written into again. */
    static final String EXPORT_MARKER = ".tankard-export";

    private DataCommand() {
    }

    /** Runs {@code import-data} ({@code importing}) or {@code export-data}; the exit status. */
    static int run(boolean importing, String[] args, Map<String, String> env, Path workDir, PrintStream out,
                   PrintStream err) {
        Path folder = null;
        boolean force = false;
        List<String> serverArgs = new ArrayList<>();
        TankardConfig config;
        String option = importing ? "--from" : "--to";
        try {
            for (int i = 0; i < args.length; i++) {
                if (args[i].equals(option) && i + 1 < args.length) {
                    folder = workDir.resolve(args[++i]).toAbsolutePath().normalize();
                } else if (args[i].equals("--force")) {
                    force = true;
                } else if (args[i].startsWith("--") && ConfigLoader.knowsOption(args[i].substring(2))) {
                    serverArgs.add(args[i]);
                } else if (!args[i].startsWith("--") && !serverArgs.isEmpty()) {
                    serverArgs.add(args[i]); // the value of a server option
                } else {
                    throw new ConfigException("Unknown option " + args[i]);
                }
            }
            if (folder == null) {
                throw new ConfigException(option + " DIR is needed");
            }
            config = ConfigLoader.load(serverArgs.toArray(String[]::new), env, workDir);
            if (config.storage().kind() != TankardConfig.Storage.Kind.POSTGRES) {
                throw new ConfigException("the data moves between an ST data root and a database: set tankard.storage"
                        + " to postgres and tankard.postgres.* in config.yaml (see docs/operations.md)");
            }
            if (importing && !Files.isDirectory(folder)) {
                throw new ConfigException("--from: no such folder " + folder);
            }
            if (folder.equals(config.dataRoot())) {
                throw new ConfigException(option + " names the server's own data root " + folder);
            }
        } catch (ConfigException e) {
            err.println("tankard: " + e.getMessage());
            err.print(USAGE);
            return 2;
        }
        Vertx vertx = Vertx.vertx();
        try (Stores database = Stores.postgres(vertx, config.storage().postgres(), config.dataRoot(),
                config.vectors())) {
            Files.createDirectories(config.dataRoot());
            return importing ? importFrom(folder, database, config.dataRoot(), config.vectors(), force, out, err)
                    : exportTo(folder, database, config.dataRoot(), config.vectors(), force, out, err);
        } catch (ConfigException e) {
            err.println("tankard: " + e.getMessage());
            return 2;
        } catch (RuntimeException | IOException e) {
            err.println("tankard: " + (importing ? "import" : "export") + " failed: " + e.getMessage());
            err.println("Nothing half-written was left; run the same command again to finish.");
            return 1;
        } finally {
            vertx.close();
        }
    }

    private static int importFrom(Path source, Stores database, Path dataRoot, TankardConfig.Vectors vectors,
                                  boolean force, PrintStream out,
                                  PrintStream err) {
        PgDatabase db = database.database();
        String key = source.toString();
        boolean resuming = db.call(c -> c.preparedQuery("SELECT 1 FROM data_imports WHERE source = $1 AND finished_ms IS NULL")
                .execute(Tuple.of(key)).map(rows -> rows.size() > 0));
        if (!resuming && !force && !database.accounts().users().isEmpty()) {
            err.println("tankard: the database " + db + " holds accounts already ("
                    + String.join(", ", database.accounts().users().stream().map(u -> u.handle()).toList())
                    + "); --force imports into it, replacing what has the same name");
            return 2;
        }
        db.call(c -> c.preparedQuery("INSERT INTO data_imports (source, started_ms) VALUES ($1, $2) ON CONFLICT (source)"
                + " DO UPDATE SET finished_ms = NULL").execute(Tuple.of(key, System.currentTimeMillis())));
        out.println((resuming ? "Finishing the import of " : "Importing ") + source + " into " + db);
        try (Stores files = Stores.files(source, vectors)) {
            new DataTransfer(err).copy(files, source, database, dataRoot, database);
        }
        // Fresh statistics for the planner and a visibility map for index-only scans, before autovacuum comes round:
        // a table just filled looks nearly empty, and a tail save's read of a chat's last line took a scan of the
        // chat's every line (63 ms, not 0.5).
        db.call(c -> c.query("VACUUM (ANALYZE)").execute());
        db.call(c -> c.preparedQuery("UPDATE data_imports SET finished_ms = $2 WHERE source = $1")
                .execute(Tuple.of(key, System.currentTimeMillis())));
        out.println("Imported " + source + " into " + db);
        return 0;
    }

    private static int exportTo(Path target, Stores database, Path dataRoot, TankardConfig.Vectors vectors,
                                boolean force, PrintStream out,
                                PrintStream err) throws IOException {
        Path marker = target.resolve(EXPORT_MARKER);
        boolean resuming = Files.isRegularFile(marker);
        if (!resuming && !force && !isEmpty(target)) {
            err.println("tankard: " + target + " is not empty; --force exports into it, replacing what has the same name");
            return 2;
        }
        Files.createDirectories(target);
        Files.writeString(marker, "an export of Tankard's data that has not finished; run it again to finish\n");
        out.println((resuming ? "Finishing the export of " : "Exporting ") + database.database() + " to " + target);
        try (Stores files = Stores.files(target, vectors)) {
            new DataTransfer(err).copy(database, dataRoot, files, target, database);
        }
        Files.delete(marker);
        out.println("Exported " + database.database() + " to " + target);
        return 0;
    }

    private static boolean isEmpty(Path folder) {
        if (!Files.exists(folder)) {
            return true;
        }
        try (Stream<Path> entries = Files.list(folder)) {
            return entries.findAny().isEmpty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

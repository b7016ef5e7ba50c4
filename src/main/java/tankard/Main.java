package tankard;

import tankard.config.ConfigException;
import tankard.config.ConfigLoader;
import tankard.config.TankardConfig;
import tankard.summarize.chat.SummarizeCommand;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * Command-line entry point: {@code java -jar tankard.jar [--port N] [--dataRoot DIR] [--frontend DIR] …}, or
 * {@code java -jar tankard.jar summarize …} to summarize a chat with the main backend (SummarizeCommand), or
 * {@code import-data} / {@code export-data} to move data between an ST data root and the database (DataCommand).
 */
public final class Main {
    /** How long the close after a graceful stop's drain may take before the process exits anyway. */
    private static final long CLOSE_SECONDS = 10;

    private Main() {
    }

    public static void main(String[] args) {
        // Thumbnails are drawn with Java2D, which must not look for a display on a server.
        System.setProperty("java.awt.headless", "true");
        if (args.length > 0 && args[0].equals("summarize")) {
            System.exit(SummarizeCommand.run(Arrays.copyOfRange(args, 1, args.length), System.getenv(),
                    Path.of("").toAbsolutePath(), System.out, System.err));
        }
        if (args.length > 0 && (args[0].equals("import-data") || args[0].equals("export-data"))) {
            System.exit(DataCommand.run(args[0].equals("import-data"), Arrays.copyOfRange(args, 1, args.length),
                    System.getenv(), Path.of("").toAbsolutePath(), System.out, System.err));
        }
        TankardConfig config;
        try {
            config = ConfigLoader.load(args, System.getenv(), Path.of("").toAbsolutePath());
        } catch (ConfigException e) {
            System.err.println("Tankard cannot start: " + e.getMessage());
            System.exit(2);
            return;
        }
        Tankard.start(config)
                .onSuccess(t -> {
                    String scheme = config.ssl().enabled() ? "https" : "http";
                    String host = config.listen() ? config.listenAddressIpv4() : "127.0.0.1";
                    System.out.println("Tankard is listening on " + scheme + "://" + host + ":" + t.port() + "/"
                            + " (data: " + config.dataRoot() + ", frontend: " + config.frontendDir() + ")");
                    Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(t), "tankard-shutdown"));
                })
                .onFailure(e -> {
                    Throwable cause = e instanceof ConfigException ? e : e.getCause() instanceof ConfigException c ? c : e;
                    System.err.println("Tankard cannot start: " + cause.getMessage());
                    System.exit(cause instanceof ConfigException ? 2 : 1);
                });
    }

    /**
     * On SIGTERM / Ctrl-C: the graceful stop (requests under way finish for up to tankard.shutdownGraceSeconds),
     * then a clean close (pending saves done) within bounds.
     */
    private static void stop(Tankard tankard) {
        try {
            tankard.stop().toCompletionStage().toCompletableFuture().get(CLOSE_SECONDS, TimeUnit.SECONDS);
        } catch (Exception e) {
            System.err.println("Tankard did not stop cleanly: " + e);
        }
    }
}

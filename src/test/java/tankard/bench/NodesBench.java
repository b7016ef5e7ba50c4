package tankard.bench;

import tankard.store.AtomicFiles;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One Tankard node and then two on one PostgreSQL database, each behind nginx, under the clients of
 * {@link LoadBench}; then the two again with a rolling restart during the load (each node stopped with SIGTERM,
 * which lets it finish what it runs, and started again on its port). Prints errors, throughput and p50/p99 of each
 * (bench/nodes.sh, see bench/README.md).
 * <p>
 * Usage: {@code bench/nodes.sh [clients] [seconds] [cards]} (default 100 60 500). The database is
 * {@code tankard_nodes} on 127.0.0.1:5432 as {@code PGUSER} (postgres), made anew each run.
 */
public final class NodesBench {
    private static final String DATABASE = "tankard_nodes";

    public static void main(String[] args) throws Exception {
        int clients = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 60;
        int cards = args.length > 2 ? Integer.parseInt(args[2]) : 500;
        Path root = Path.of(System.getProperty("bench.dir", "target/bench")).toAbsolutePath().resolve("nodes");
        if (Files.exists(root)) {
            AtomicFiles.deleteTree(root);
        }
        Path source = root.resolve("source");
        LoadBench.prepare(source, clients, cards);
        List<Path> nodes = List.of(root.resolve("node1"), root.resolve("node2"));
        String user = System.getenv().getOrDefault("PGUSER", "postgres");
        String password = System.getenv().getOrDefault("PGPASSWORD", "");
        PostgresBench.admin("DROP DATABASE IF EXISTS " + DATABASE + " WITH (FORCE)", user, password);
        PostgresBench.admin("CREATE DATABASE " + DATABASE, user, password);
        for (Path node : nodes) {
            LoadBench.copyTree(source.resolve("public"), node.resolve("public"));
            Files.writeString(node.resolve("config.yaml"), "tankard:\n  storage: postgres\n  postgres:\n"
                    + "    database: " + DATABASE + "\n    user: " + user + "\n    password: \"" + password + "\"\n");
        }
        PostgresBench.dataCommand(nodes.get(0), "import-data", "--from", source.resolve("data").toString());
        System.out.printf("%d clients, %d s each run, %d cards, on PostgreSQL (load average %s)%n", clients, seconds,
                cards, Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);

        List<String> jvm = List.of("@" + Path.of("bin/jvm.options").toAbsolutePath());
        List<Integer> ports = List.of(BenchServer.freePort(), BenchServer.freePort());
        List<String> lines = new ArrayList<>();
        for (int count = 1; count <= 2; count++) {
            lines.add(run(count + (count == 1 ? " node " : " nodes"), root, nodes.subList(0, count), jvm,
                    ports.subList(0, count), clients, seconds, false));
        }
        lines.add(run("2 nodes, rolling restart", root, nodes, jvm, ports, clients, seconds, true));
        System.out.printf("%n%-26s %8s %12s %9s %9s%n", "", "errors", "requests/s", "p50 ms", "p99 ms");
        lines.forEach(System.out::println);
    }

    /** The nodes behind nginx under the load; with {@code restart}, each node restarted in turn meanwhile. */
    private static String run(String name, Path root, List<Path> nodes, List<String> jvm, List<Integer> ports,
                              int clients, int seconds, boolean restart) throws Exception {
        List<BenchServer> servers = new ArrayList<>();
        try {
            for (int i = 0; i < nodes.size(); i++) {
                servers.add(BenchServer.tankard(nodes.get(i), jvm, ports.get(i)));
            }
            try (BenchServer nginx = BenchServer.nginx(root.resolve("nginx"),
                    ports.stream().mapToInt(Integer::intValue).toArray())) {
                CompletableFuture<String> restarts = restart
                        ? CompletableFuture.supplyAsync(() -> restartEach(servers, nodes, jvm, ports, seconds))
                        : CompletableFuture.completedFuture("");
                System.out.printf("%n%s%n", name);
                LoadBench.Measured measured = LoadBench.drive(nginx, null, clients, seconds);
                measured.print(name);
                System.out.println(restarts.join());
                return String.format("%-26s %8d %12.0f %9.1f %9.1f", name, measured.errors(), measured.throughput(),
                        measured.percentile(50), measured.percentile(99));
            }
        } finally {
            for (BenchServer server : servers) {
                server.close();
            }
        }
    }

    /**
     * Stops each node in turn (SIGTERM) and starts it again on its port, a quarter of the run apart; how long each
     * was away.
     */
    private static String restartEach(List<BenchServer> servers, List<Path> nodes, List<String> jvm,
                                      List<Integer> ports, int seconds) {
        StringBuilder report = new StringBuilder("restarts:");
        try {
            for (int i = 0; i < servers.size(); i++) {
                Thread.sleep(seconds * 1000L / 4);
                long stop = System.nanoTime();
                servers.get(i).close();
                servers.set(i, BenchServer.tankard(nodes.get(i), jvm, ports.get(i)));
                report.append(String.format(" node %d away %.1f s;", i + 1, (System.nanoTime() - stop) / 1e9));
            }
        } catch (Exception e) {
            report.append(" failed: ").append(e);
        }
        return report.toString();
    }
}

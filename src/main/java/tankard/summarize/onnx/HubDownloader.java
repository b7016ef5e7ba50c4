package tankard.summarize.onnx;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.outbound.UpstreamClient;
import tankard.outbound.UpstreamClient.DownloadException;
import tankard.store.AtomicFiles;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.ExecutionException;

/**
 * Downloads the files of an ONNX export from the Hugging Face hub ({@code https://huggingface.co/<repo>/resolve/
 * main/<file>}), through Tankard's outbound policy (proxy, private-address filter) and provider origins (so a
 * gateway or a test's mock can stand in for the hub). Each file goes to a {@code .part} file beside its place and
 * is renamed there once complete and flushed, so a folder never holds half a file. Files already there are kept:
 * a model is downloaded once, then works offline.
 */
public final class HubDownloader {
    private static final Logger LOG = LoggerFactory.getLogger(HubDownloader.class);
    public static final String HUB = "https://huggingface.co";
    private static final int ATTEMPTS = 3;
    private static final long RETRY_PAUSE_MS = 500;

    /**
     * A file of a model: the paths in the repository it may be at, tried in order until the hub has one (an ONNX
     * graph may sit under {@code onnx/}, the Xenova layout, or at the top).
     */
    public record Wanted(List<String> paths, boolean required) {
        public static Wanted file(String path, boolean required) {
            return new Wanted(List.of(path), required);
        }

        /** A graph under {@code onnx/} or at the top. */
        public static Wanted graph(String name, boolean required) {
            return new Wanted(List.of("onnx/" + name, name), required);
        }

        boolean present(Path folder) {
            return paths.stream().anyMatch(path -> Files.isRegularFile(folder.resolve(path)));
        }
    }

    /** Told how far a file's download has come; {@code total} is -1 when the hub does not say. */
    @FunctionalInterface
    public interface Progress {
        void update(String file, long done, long total);
    }

    private final UpstreamClient downloader;
    private final List<Wanted> files;
    private final String notAModel;

    /**
     * @param files     the model's files, downloaded in this order
     * @param notAModel why a repository without a required file is not a model this downloader is for
     */
    public HubDownloader(UpstreamClient downloader, List<Wanted> files, String notAModel) {
        this.downloader = downloader;
        this.files = List.copyOf(files);
        this.notAModel = notAModel;
    }

    /** Whether the folder holds every required file (so no download is needed). */
    public boolean complete(Path folder) {
        return files.stream().filter(Wanted::required).allMatch(file -> file.present(folder));
    }

    /** The required files, for messages: the first path of each ("config.json, tokenizer.json, onnx/..."). */
    public String required() {
        return String.join(", ", files.stream().filter(Wanted::required).map(file -> file.paths().get(0)).toList());
    }

    /**
     * Downloads what the folder lacks. Blocking: call it on a thread of its own, never an event loop; large models
     * take minutes.
     */
    public void download(String repo, Path folder, Progress progress) throws IOException, InterruptedException {
        for (Wanted file : files) {
            if (file.present(folder)) {
                continue;
            }
            boolean found = false;
            for (String path : file.paths()) {
                if (fetch(repo, path, folder.resolve(path), progress)) {
                    found = true;
                    break;
                }
            }
            if (!found && file.required()) {
                throw new IOException(repo + " has no " + String.join(" nor ", file.paths()) + ": " + notAModel);
            }
        }
    }

    /**
     * One file: true when downloaded and in place, false when the hub has no such file (404). A lost connection is
     * tried again from the start, up to {@link #ATTEMPTS} times: a GET is safe to repeat, and a large model should
     * not fail over one dropped connection.
     */
    private boolean fetch(String repo, String path, Path target, Progress progress) throws IOException, InterruptedException {
        Files.createDirectories(target.getParent());
        Path part = target.resolveSibling(target.getFileName() + ".part");
        String url = HUB + "/" + repo + "/resolve/main/" + path;
        for (int attempt = 1; ; attempt++) {
            Files.deleteIfExists(part);
            try {
                downloader.toFile(url, part, Long.MAX_VALUE, (done, total) -> progress.update(path, done, total))
                        .toCompletionStage().toCompletableFuture().get();
                break;
            } catch (ExecutionException e) {
                Files.deleteIfExists(part);
                DownloadException failed = e.getCause() instanceof DownloadException refused ? refused : null;
                int status = failed != null ? failed.status() : 0;
                if (status == 404) {
                    return false;
                }
                if (failed != null && failed.connectionLost() && attempt < ATTEMPTS) {
                    LOG.warn("{}; trying again", failed.getMessage());
                    Thread.sleep(RETRY_PAUSE_MS * attempt);
                    continue;
                }
                throw new IOException("Cannot download " + url + ": " + (status != 0 ? "the hub answered HTTP " + status
                        : e.getCause().getMessage()), e.getCause());
            } catch (InterruptedException e) {
                Files.deleteIfExists(part);
                throw e;
            }
        }
        Files.move(part, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        AtomicFiles.syncFolder(target.getParent());
        return true;
    }

    /** Progress as log lines: at most one per file every five seconds or per tenth done, and when a file is done. */
    public static Progress logging(String repo) {
        return new Progress() {
            private long lastLog;
            private long lastTenth = -1;

            @Override
            public void update(String file, long done, long total) {
                long now = System.nanoTime();
                long tenth = total > 0 ? done * 10 / total : -1;
                boolean finished = total >= 0 && done == total;
                if (done == 0 || finished || tenth != lastTenth || now - lastLog > 5_000_000_000L) {
                    lastLog = now;
                    lastTenth = tenth;
                    String size = total > 0 ? String.format("%d%% (%.1f of %.1f MB)", done * 100 / total,
                            done / 1e6, total / 1e6) : String.format("%.1f MB", done / 1e6);
                    LOG.info("{} {} from {}: {}", finished ? "Downloaded" : "Downloading", file, repo, size);
                }
            }
        };
    }
}

package tankard.summarize.onnx;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.outbound.UpstreamClient;
import tankard.summarize.SummaryModel;
import tankard.summarize.SummaryUnavailableException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;

/**
 * Loads the Extras summarize module's model in the background, so the module's port answers at once (503 until the
 * model is ready) and a failed download never stops the server. {@code --summarization-model} is a local ONNX
 * export folder, or a Hugging Face repository id whose export is downloaded once into
 * {@code <dataRoot>/_models/<owner>/<name>/} (then used offline).
 */
public final class ModelLoader {
    private static final Logger LOG = LoggerFactory.getLogger(ModelLoader.class);
    /** A distilled BART summarizer (CNN/DailyMail) published with ONNX weights: about 2 GB to download. */
    public static final String DEFAULT_MODEL = "Xenova/distilbart-cnn-6-6";
    private static final Pattern REPO_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*");

    /** The files of a BART export, as {@link BartModel} loads them. */
    private static final List<HubDownloader.Wanted> FILES = List.of(
            HubDownloader.Wanted.file("config.json", true),
            HubDownloader.Wanted.file("generation_config.json", false),
            HubDownloader.Wanted.file("tokenizer.json", true),
            HubDownloader.Wanted.file("tokenizer_config.json", false),
            HubDownloader.Wanted.graph("encoder_model.onnx", true),
            HubDownloader.Wanted.graph("decoder_model.onnx", true),
            HubDownloader.Wanted.graph("decoder_with_past_model.onnx", false));

    private final String name;
    private final CompletableFuture<BartModel> model = new CompletableFuture<>();

    private ModelLoader(String name) {
        this.name = name;
    }

    /**
     * Starts loading on a thread of its own (a download may take minutes: not an event loop, nor a Vert.x worker
     * that would be reported blocked).
     *
     * @param setting  {@code --summarization-model}; empty for {@link #DEFAULT_MODEL}
     * @param dataRoot where downloaded models are kept, under {@code _models/}
     */
    public static ModelLoader start(String setting, Path dataRoot, UpstreamClient downloader) {
        String name = setting.isBlank() ? DEFAULT_MODEL : setting.strip();
        ModelLoader loader = new ModelLoader(name);
        Thread thread = new Thread(() -> loader.load(dataRoot, hub(downloader)),
                "summary-model-loader");
        thread.setDaemon(true);
        thread.start();
        return loader;
    }

    private void load(Path dataRoot, HubDownloader hub) {
        try {
            Path folder = folder(dataRoot);
            if (!Files.isDirectory(Path.of(name)) && !hub.complete(folder)) {
                LOG.info("Downloading the summarization model {} from the Hugging Face hub into {}", name, folder);
                hub.download(name, folder, HubDownloader.logging(name));
            }
            LOG.info("Loading the summarization model from {}", folder);
            BartModel loaded = BartModel.load(folder);
            LOG.info("Summarization model {} loaded ({}, window {} tokens)", name,
                    loaded.cached() ? "with key/value cache" : "without key/value cache", loaded.inputWindow());
            model.complete(loaded);
        } catch (Exception | Error e) {
            LOG.error("No summarization model: cannot load {}: {}. The Extras summarize module answers 503 until "
                    + "Tankard restarts with a model: check the connection to huggingface.co, or pass a local ONNX "
                    + "export folder with --summarization-model (see the README).", name, e.getMessage());
            model.completeExceptionally(e);
        }
    }

    /** The downloader of BART exports. */
    static HubDownloader hub(UpstreamClient downloader) {
        return new HubDownloader(downloader, FILES, "it is not an ONNX export with separate decoders (a"
                + " decoder_model_merged.onnx alone is not supported; see the README for exporting a model with Optimum)");
    }

    /** A local folder as given; a repository id's download folder in the data root. */
    private Path folder(Path dataRoot) {
        Path local = Path.of(name);
        if (Files.isDirectory(local)) {
            return local;
        }
        if (!REPO_ID.matcher(name).matches()) {
            throw new IllegalArgumentException("\"" + name + "\" is neither a folder nor a Hugging Face repository id");
        }
        String[] parts = name.split("/");
        return dataRoot.resolve("_models").resolve(parts[0]).resolve(parts[1]);
    }

    /** The model, or a {@link SummaryUnavailableException} while it loads or when it could not be loaded. */
    public SummaryModel require() {
        if (!model.isDone()) {
            throw new SummaryUnavailableException("no summarization model loaded yet: " + name
                    + " is still downloading or loading; try again later");
        }
        if (model.isCompletedExceptionally()) {
            throw new SummaryUnavailableException("no summarization model loaded");
        }
        return model.join();
    }

    /** Frees the model's native memory once nothing uses it; a model still loading is freed when it arrives. */
    public void close() {
        model.thenAccept(loaded -> {
            try {
                loaded.close();
            } catch (Exception e) {
                LOG.warn("Cannot free the summarization model: {}", e.getMessage());
            }
        });
    }

    /** Completes when the model is loaded or has failed to (for tests and the command line). */
    public CompletableFuture<BartModel> loaded() {
        return model;
    }
}

package tankard.classify;

import tankard.config.TankardConfig;
import tankard.core.Refusal;
import tankard.outbound.UpstreamClient;
import tankard.summarize.onnx.HubDownloader;
import tankard.vector.local.LocalEmbeddings;
import tankard.vector.local.OnDemandModel;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The emotion classifier of ST's Character Expressions extension (ST: src/endpoints/classify.js), on the
 * text-classification model of {@code extensions.models.classification} (ST's default when empty), loaded when
 * first asked for (see {@link OnDemandModel}: 503 while it loads), texts run behind a queue of
 * {@code tankard.classify.queueSize}. Results are cached per text, as ST's are.
 */
public final class Classifier implements AutoCloseable {
    /** ST's default (src/transformers.js, the text-classification task), a go-emotions DistilBERT. */
    public static final String DEFAULT_MODEL = "Cohee/distilbert-base-uncased-go-emotions-onnx";
    /** How many labels ST's classification lists (ST: classify.js asks the pipeline for {@code topk: 5}). */
    public static final int ST_TOP = 5;
    /** ST's cache keeps every text for good; this one the most recent texts. */
    private static final int CACHED = 1000;

    private final OnDemandModel<ClassifierModel> model;
    private final Map<String, List<Score>> cache = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, List<Score>> eldest) {
            return size() > CACHED;
        }
    };

    public Classifier(TankardConfig config, UpstreamClient downloader) {
        String setting = config.models().classification();
        model = new OnDemandModel<>("classification", "extensions.models.classification", "tankard.classify.queueSize",
                setting.isEmpty() ? DEFAULT_MODEL : setting, config.dataRoot().resolve("_models"),
                config.models().autoDownload(), new HubDownloader(downloader, LocalEmbeddings.FILES,
                "it is not a transformers.js model (tokenizer.json and an ONNX graph)"),
                config.models().classifyQueue(), ClassifierModel::load);
    }

    /**
     * The {@code top} labels of {@code text} with their scores, highest first. Fails with an {@code UNAVAILABLE}
     * {@link Refusal} while the model is not ready or the queue is full, {@code FAILED} when the model fails.
     */
    public CompletionStage<List<Score>> classify(String text, int top) {
        List<Score> cached;
        synchronized (cache) {
            cached = cache.get(text);
        }
        CompletionStage<List<Score>> ranked = cached != null ? CompletableFuture.completedFuture(cached)
                : model.submit(ready -> {
                    List<Score> scores = ready.classify(text);
                    synchronized (cache) {
                        cache.put(text, scores);
                    }
                    return scores;
                });
        return ranked.thenApply(scores -> scores.subList(0, Math.min(top, scores.size())));
    }

    /** The model's labels: the keys of its {@code config.json} {@code label2id}. */
    public CompletionStage<List<String>> labels() {
        try {
            return CompletableFuture.completedFuture(model.ready().labels());
        } catch (Refusal refusal) {
            return CompletableFuture.failedFuture(refusal);
        }
    }

    /** Takes no more requests, lets those queued end, then frees the model. */
    @Override
    public void close() {
        model.close();
    }
}

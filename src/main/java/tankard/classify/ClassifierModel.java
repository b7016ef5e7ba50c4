package tankard.classify;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import com.fasterxml.jackson.databind.JsonNode;
import tankard.json.JsonFiles;
import tankard.vector.local.LocalEmbeddingModel;

import java.io.IOException;
import java.nio.FloatBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * A text-classification model in the transformers.js layout ({@code config.json} with {@code id2label} and
 * {@code label2id}, {@code tokenizer.json}, the graph as {@code onnx/model_quantized.onnx} or another of
 * {@link LocalEmbeddingModel#GRAPHS}), run as ST's transformers.js text-classification pipeline runs it (ST:
 * sillytavern-transformers, src/pipelines.js, TextClassificationPipeline): the text tokenized and truncated, the
 * graph's {@code logits} turned into scores by a sigmoid when {@code config.problem_type} is
 * {@code multi_label_classification}, else by a softmax, and the labels sorted by score. One thread calls it.
 */
final class ClassifierModel implements AutoCloseable {
    private final OrtEnvironment env = OrtEnvironment.getEnvironment();
    private final OrtSession.SessionOptions options = new OrtSession.SessionOptions();
    private final OrtSession session;
    private final HuggingFaceTokenizer tokenizer;
    private final boolean tokenTypes;
    private final boolean multiLabel;
    private final List<String> id2label;
    private final List<String> labels;

    private ClassifierModel(Path folder) throws IOException, OrtException {
        JsonNode config = JsonFiles.readObject(folder.resolve("config.json"), false);
        JsonNode names = config.path("id2label");
        if (!names.isObject() || names.isEmpty()) {
            throw new IOException("The model's config.json has no id2label: it is not a classifier");
        }
        id2label = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            id2label.add(names.path(String.valueOf(i)).asText("LABEL_" + i));
        }
        labels = new ArrayList<>();
        config.path("label2id").fieldNames().forEachRemaining(labels::add);
        multiLabel = "multi_label_classification".equals(config.path("problem_type").asText());
        Path graph = LocalEmbeddingModel.graph(folder);
        tokenizer = LocalEmbeddingModel.tokenizer(folder, LocalEmbeddingModel.maxLength(folder));
        LocalEmbeddingModel.configure(options);
        session = env.createSession(graph.toString(), options);
        tokenTypes = session.getInputNames().contains("token_type_ids");
    }

    /** Loads a model folder. Blocking: seconds, and the model's size in memory. */
    static ClassifierModel load(Path folder) throws IOException, OrtException {
        try {
            return new ClassifierModel(folder);
        } catch (RuntimeException e) { // the tokenizer binding's failures on a bad tokenizer.json
            throw new IOException("Cannot load the classifier in " + folder + ": " + e.getMessage(), e);
        }
    }

    /** The keys of {@code config.label2id}, in the file's order (ST: classify.js, the labels route). */
    List<String> labels() {
        return List.copyOf(labels);
    }

    /** Every label with its score, highest first (equal scores in label order). */
    List<Score> classify(String text) throws OrtException {
        long[] ids = tokenizer.encode(text).getIds();
        Map<String, OnnxTensor> inputs = LocalEmbeddingModel.inputs(env, ids, tokenTypes);
        float[] logits;
        try (OrtSession.Result result = session.run(inputs)) {
            OnnxTensor output = (OnnxTensor) result.get("logits").orElseGet(() -> result.get(0));
            FloatBuffer buffer = output.getFloatBuffer();
            logits = new float[buffer.remaining()];
            buffer.get(logits);
        } finally {
            inputs.values().forEach(OnnxTensor::close);
        }
        if (logits.length != id2label.size()) {
            throw new IllegalStateException("The model gave " + logits.length + " logits for " + id2label.size()
                    + " labels (config.json id2label)");
        }
        double[] scores = multiLabel ? sigmoid(logits) : softmax(logits);
        List<Score> ranked = new ArrayList<>();
        for (int i = 0; i < scores.length; i++) {
            // transformers.js computes in 32-bit floats
            ranked.add(new Score(id2label.get(i), (float) scores[i]));
        }
        ranked.sort(Comparator.comparingDouble(Score::score).reversed());
        return List.copyOf(ranked);
    }

    static double[] sigmoid(float[] logits) {
        double[] scores = new double[logits.length];
        for (int i = 0; i < logits.length; i++) {
            scores[i] = 1 / (1 + Math.exp(-logits[i]));
        }
        return scores;
    }

    static double[] softmax(float[] logits) {
        double max = Double.NEGATIVE_INFINITY;
        for (float logit : logits) {
            max = Math.max(max, logit);
        }
        double sum = 0;
        double[] scores = new double[logits.length];
        for (int i = 0; i < logits.length; i++) {
            scores[i] = Math.exp(logits[i] - max);
            sum += scores[i];
        }
        for (int i = 0; i < logits.length; i++) {
            scores[i] /= sum;
        }
        return scores;
    }

    @Override
    public void close() throws OrtException {
        session.close();
        options.close();
        tokenizer.close();
    }
}

package tankard.speech;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.core.Refusal;
import tankard.vector.local.LocalEmbeddings;
import tankard.vector.local.OnDemandModel;

import java.util.function.Function;

/**
 * One task's model as ST's getPipeline keeps it (ST: src/transformers.js): the model a request names, replacing the
 * one loaded before (which finishes what it runs, then is freed); none named: the one loaded, else the configured one.
 */
final class PipelineSlot<M extends AutoCloseable> implements AutoCloseable {
    private final String task;
    private final String configured;
    private final Function<String, OnDemandModel<M>> open;
    private String name;
    private OnDemandModel<M> model;
    private boolean closed;

    /** @param open the on-demand model of a repository id */
    PipelineSlot(String task, String configured, Function<String, OnDemandModel<M>> open) {
        this.task = task;
        this.configured = configured;
        this.open = open;
    }

    /**
     * The model for a request's {@code model} field. A 400 {@link Refusal} when it is neither absent, null, empty
     * nor a Hugging Face repository id, refused before anything is swapped; 503 once closed.
     */
    synchronized OnDemandModel<M> model(JsonNode requested) {
        String asked = requested.isTextual() ? requested.asText().strip() : "";
        if (!requested.isMissingNode() && !requested.isNull()
                && !(requested.isTextual() && (asked.isEmpty() || LocalEmbeddings.isRepoId(asked)))) {
            throw Refusal.badRequest("\"model\" must be a Hugging Face repository id (owner/name)");
        }
        if (closed) {
            throw Refusal.unavailable("The " + task + " model is stopped");
        }
        String wanted = !asked.isEmpty() ? asked : name != null ? name : configured;
        if (!wanted.equals(name)) {
            if (model != null) {
                model.close();
            }
            name = wanted;
            model = open.apply(wanted);
        }
        return model;
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (model != null) {
            model.close();
        }
    }
}

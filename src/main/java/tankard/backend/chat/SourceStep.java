package tankard.backend.chat;

import io.vertx.core.Future;
import tankard.outbound.UpstreamRequest;

import java.util.function.Supplier;

/**
 * What a source makes of the frontend's body: the upstream call to make, ST's own answer when there is no call to
 * make (a missing key, an incomplete setting), or a step known only once an asynchronous call has completed.
 */
public sealed interface SourceStep {
    /** The upstream call. */
    record Call(UpstreamRequest request) implements SourceStep {
    }

    /** ST answers without calling the upstream. */
    record Answered(JsonAnswer answer) implements SourceStep {
    }

    /**
     * A step that an asynchronous call must come back for first (Vertex AI's service-account token), so that no
     * thread waits for it.
     */
    record Later(Supplier<Future<SourceStep>> step) implements SourceStep {
        @Override
        public Future<SourceStep> settled() {
            return step.get().compose(SourceStep::settled);
        }
    }

    /** ST's {@code 400 {error: true}}: a key or a setting missing, or no such call for this source. */
    static SourceStep badRequest() {
        return new Answered(JsonAnswer.errorTrue(400));
    }

    /** The call or the answer this step comes to. */
    default Future<SourceStep> settled() {
        return Future.succeededFuture(this);
    }
}

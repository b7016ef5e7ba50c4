package tankard.outbound;

import io.vertx.core.buffer.Buffer;

/** Rewrites an upstream stream into what the frontend reads, chunk by chunk as it arrives. Not thread-safe. */
public interface StreamConverter {
    /** The byte-for-byte relay. */
    StreamConverter NONE = new StreamConverter() {
        @Override
        public Buffer convert(Buffer chunk) {
            return chunk;
        }

        @Override
        public Buffer end() {
            return Buffer.buffer();
        }
    };

    /** What to send for this upstream chunk (empty: nothing yet). */
    Buffer convert(Buffer chunk);

    /** What to send once the upstream has ended. */
    Buffer end();
}

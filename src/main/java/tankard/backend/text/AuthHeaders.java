package tankard.backend.text;

import io.vertx.core.MultiMap;
import tankard.backend.common.AttributionHeaders;

import java.util.function.BiConsumer;

/** How a text-completion backend takes its key (ST's src/additional-headers.js, setAdditionalHeadersByType). */
enum AuthHeaders {
    /** {@code Authorization: Bearer} when there is a key. */
    BEARER((headers, key) -> bearer(headers, key)),
    /** {@code X-API-KEY} and Bearer when there is a key (Mancer, Aphrodite, TabbyAPI). */
    API_KEY_AND_BEARER((headers, key) -> {
        if (!key.isEmpty()) {
            headers.set("X-API-KEY", key);
        }
        bearer(headers, key);
    }),
    /** ST's fixed Referer and Title always, Bearer when there is a key (OpenRouter, Featherless). */
    REFERER_AND_BEARER((headers, key) -> {
        AttributionHeaders.addTo(headers);
        bearer(headers, key);
    }),
    /** No key at all (Ollama). */
    NONE((headers, key) -> { });

    private final BiConsumer<MultiMap, String> adder;

    AuthHeaders(BiConsumer<MultiMap, String> adder) {
        this.adder = adder;
    }

    void add(MultiMap headers, String key) {
        adder.accept(headers, key == null ? "" : key);
    }

    private static void bearer(MultiMap headers, String key) {
        if (!key.isEmpty()) {
            headers.set("Authorization", "Bearer " + key);
        }
    }
}

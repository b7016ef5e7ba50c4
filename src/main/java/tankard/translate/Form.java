package tankard.translate;

import io.vertx.core.buffer.Buffer;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * An {@code application/x-www-form-urlencoded} body or query, laid out as JavaScript's URLSearchParams lays it out
 * (URLEncoder's rules are the same: spaces as {@code +}, only {@code *-._} and letters and digits left as they are).
 */
final class Form {
    private final StringBuilder text = new StringBuilder();

    Form add(String name, String value) {
        if (!text.isEmpty()) {
            text.append('&');
        }
        text.append(URLEncoder.encode(name, StandardCharsets.UTF_8)).append('=')
                .append(URLEncoder.encode(value, StandardCharsets.UTF_8));
        return this;
    }

    Buffer buffer() {
        return Buffer.buffer(text.toString());
    }

    @Override
    public String toString() {
        return text.toString();
    }
}

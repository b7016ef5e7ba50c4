package tankard.backend.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.buffer.Buffer;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.outbound.StreamConverter;

/**
 * Ollama's NDJSON stream as the OpenAI-style SSE the frontend parses (ST's parseOllamaStream in
 * src/endpoints/backends/text-completions.js): one
 * {@code data: {"choices":[{"text":…,"thinking":…}]}} event per line, {@code data: [DONE]} at the end.
 * Unlike ST, which parses its whole buffer as one document and loses every line after two arrive in one chunk,
 * each complete line is converted on its own; a line cut between chunks waits for its rest (as bytes, so a
 * UTF-8 character split across chunks survives). A line carrying Ollama's {@code error} is passed on as it is,
 * which the frontend shows and stops on; ST would turn it into empty text.
 */
final class OllamaStream implements StreamConverter {
    private static final Buffer DONE = Buffer.buffer("data: [DONE]\n\n");

    private Buffer pending = Buffer.buffer();

    @Override
    public Buffer convert(Buffer chunk) {
        pending.appendBuffer(chunk);
        Buffer out = Buffer.buffer();
        int start = 0;
        for (int i = 0; i < pending.length(); i++) {
            if (pending.getByte(i) == '\n') {
                line(pending.slice(start, i), out);
                start = i + 1;
            }
        }
        pending = pending.getBuffer(start, pending.length());
        return out;
    }

    @Override
    public Buffer end() {
        Buffer out = Buffer.buffer();
        line(pending, out);
        pending = Buffer.buffer();
        return out.appendBuffer(DONE);
    }

    private static void line(Buffer line, Buffer out) {
        JsonNode json = line.toString().isBlank() ? null : JsJson.tryParse(line.getBytes());
        if (json == null) {
            return;
        }
        if (Js.truthy(json.get("error"))) {
            out.appendString("data: " + JsJson.compact(json) + "\n\n");
            return;
        }
        ObjectNode choice = JsJson.object();
        choice.set("text", Js.or(json.get("response"), JsJson.tree("")));
        choice.set("thinking", Js.or(json.get("thinking"), JsJson.tree("")));
        ObjectNode event = JsJson.object();
        event.set("choices", JsJson.array().add(choice));
        out.appendString("data: " + JsJson.compact(event) + "\n\n");
    }
}

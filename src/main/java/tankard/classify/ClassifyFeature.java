package tankard.classify;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.ext.web.Router;
import tankard.core.Refusal;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;
import tankard.json.JsJson;

/**
 * The local emotion classification of ST's Character Expressions extension (ST: src/endpoints/classify.js):
 * {@code POST /api/extra/classify} {@code {text}} answers {@code {classification: [{label, score}, ...]}}, the five
 * best labels, highest first; {@code POST /api/extra/classify/labels} answers {@code {labels}}. 503 with a message
 * while the model is not ready.
 */
public record ClassifyFeature(Classifier classifier) implements Feature {
    @Override
    public void mount(Router router, Routes routes) {
        router.post("/api/extra/classify").handler(routes.later(request ->
                classifier.classify(text(request.body()), Classifier.ST_TOP).thenApply(scores -> Reply.json(
                        JsJson.object().set("classification", Score.json(scores))))));
        router.post("/api/extra/classify/labels").handler(routes.later(request ->
                classifier.labels().thenApply(labels -> Reply.json(
                        JsJson.object().set("labels", JsJson.MAPPER.valueToTree(labels))))));
    }

    /** The body's {@code text}: ST would classify whatever it is given; here anything but a string is a 400. */
    static String text(JsonNode body) {
        JsonNode text = body.get("text");
        if (text == null || !text.isTextual()) {
            throw Refusal.badRequest("\"text\" must be a string");
        }
        return text.asText();
    }
}

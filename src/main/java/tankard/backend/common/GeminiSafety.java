package tankard.backend.common;

import com.fasterxml.jackson.databind.node.ArrayNode;
import tankard.json.JsJson;

import java.util.List;

/** ST's GEMINI_SAFETY, with VERTEX_SAFETY after it for Vertex AI (src/constants.js): every filter off. */
public final class GeminiSafety {
    private static final List<String> GEMINI = List.of("HARASSMENT", "HATE_SPEECH", "SEXUALLY_EXPLICIT",
            "DANGEROUS_CONTENT", "CIVIC_INTEGRITY");
    private static final List<String> VERTEX = List.of("IMAGE_HATE", "IMAGE_DANGEROUS_CONTENT",
            "IMAGE_HARASSMENT", "IMAGE_SEXUALLY_EXPLICIT", "JAILBREAK");

    private GeminiSafety() {
    }

    /** The {@code safetySettings} of a request. */
    public static ArrayNode settings(boolean vertex) {
        ArrayNode safety = JsJson.array();
        GEMINI.forEach(category -> safety.addObject().put("category", "HARM_CATEGORY_" + category).put("threshold", "OFF"));
        if (vertex) {
            VERTEX.forEach(category -> safety.addObject().put("category", "HARM_CATEGORY_" + category)
                    .put("threshold", "OFF"));
        }
        return safety;
    }
}

package tankard.engine.parity;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JsonDiffTest {
    private static JsonNode json(String text) {
        return JsJson.parse(text);
    }

    @Test
    void equalBodiesHaveNoDifferenceWhateverTheKeyOrderAndNumberSpelling() {
        assertEquals(Optional.empty(), JsonDiff.first(json("{\"a\":1,\"b\":[0.5,\"x\"]}"), json("{\"b\":[0.50,\"x\"],\"a\":1.0}")));
    }

    @Test
    void theFirstDifferenceIsNamedByItsPathWithBothValues() {
        JsonDiff.Difference difference = JsonDiff.first(
                json("{\"messages\":[{\"role\":\"system\",\"content\":\"a\"},{\"role\":\"user\",\"content\":\"b\"}]}"),
                json("{\"messages\":[{\"role\":\"system\",\"content\":\"a\"},{\"role\":\"user\",\"content\":\"c\"}]}")).orElseThrow();
        assertEquals("$.messages[1].content", difference.path());
        assertEquals("\"b\"", JsJson.compact(difference.expected()));
        assertEquals("\"c\"", JsJson.compact(difference.actual()));
    }

    @Test
    void keysAreComparedInTheOrderOfStsBody() {
        assertEquals("$.messages[0]", JsonDiff.first(json("{\"type\":\"normal\",\"messages\":[],\"char_name\":\"A\"}"),
                json("{\"type\":\"normal\",\"messages\":[1]}")).orElseThrow().path());
    }

    @Test
    void aMissingKeyOrElementIsADifference() {
        assertEquals("$.stop", JsonDiff.first(json("{\"stop\":[]}"), json("{}")).orElseThrow().path());
        assertEquals("$.m[1]", JsonDiff.first(json("{\"m\":[1]}"), json("{\"m\":[1,2]}")).orElseThrow().path());
        assertEquals("$.n", JsonDiff.first(json("{\"n\":1}"), json("{\"n\":\"1\"}")).orElseThrow().path());
    }

    @Test
    void promptsSideBySideTellWhereTheyPart() {
        String text = JsonDiff.sideBySide(json("{\"prompt\":\"abcdef\"}"), json("{\"prompt\":\"abcxef\"}"));
        assertTrue(text.contains("prompts part at character 3"), text);
    }

    @Test
    void messagesSideBySideMarkTheDifferentOnes() {
        String text = JsonDiff.sideBySide(json("{\"messages\":[{\"content\":\"a\"},{\"content\":\"b\"}]}"),
                json("{\"messages\":[{\"content\":\"a\"}]}"));
        assertTrue(text.contains("   [0]") && text.contains(">> [1]") && text.contains("Tankard: (none)"), text);
    }
}

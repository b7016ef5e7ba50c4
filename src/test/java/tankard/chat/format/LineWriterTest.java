package tankard.chat.format;

import org.junit.jupiter.api.Test;
import tankard.json.JsJson;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class LineWriterTest {
    @Test
    void linesAreJoinedByLfWithNoneAfterTheLast() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        LineWriter writer = new LineWriter(out);
        writer.line("{\"a\":1}".getBytes(StandardCharsets.UTF_8));
        writer.line("x{}y".getBytes(StandardCharsets.UTF_8), 1, 3);
        writer.line(new byte[0]);
        assertEquals("{\"a\":1}\n{}\n", out.toString(StandardCharsets.UTF_8));
        assertEquals(3, writer.lines());
    }

    @Test
    void aStoredLineIsJsonStringifyOfWhatJsonParseMade() {
        assertEquals("{\"n\":1.5,\"big\":1.2345678901234568e+22,\"e\":100}", new String(LineWriter.stringify(
                JsJson.parse("{ \"n\": 1.50, \"big\": 12345678901234567890123, \"e\": 1E+2 }")), StandardCharsets.UTF_8));
    }

    @Test
    void aChatMadeHereKeepsItsNumbers() {
        byte[] chat = LineWriter.jsonl(List.of(ChatHeader.converted(), JsJson.parse("{\"big\":12345678901234567890123}")));
        assertEquals("{\"chat_metadata\":{},\"user_name\":\"unused\",\"character_name\":\"unused\"}\n"
                + "{\"big\":12345678901234567890123}", new String(chat, StandardCharsets.UTF_8));
    }
}

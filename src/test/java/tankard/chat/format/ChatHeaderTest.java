package tankard.chat.format;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ChatHeaderTest {
    @Test
    void headersAreWrittenInStsKeyOrders() {
        assertEquals("{\"chat_metadata\":{},\"user_name\":\"unused\",\"character_name\":\"unused\"}",
                JsJson.compact(ChatHeader.converted()));
        assertEquals("{\"user_name\":\"unused\",\"character_name\":\"unused\",\"chat_metadata\":{\"scenario\":\"s\"}}",
                JsJson.compact(ChatHeader.of(JsJson.object().put("scenario", "s"))));
    }

    @Test
    void anUploadedHeaderNeedsOneOfStsKeys() {
        assertTrue(ChatHeader.isHeader(JsJson.parse("{\"user_name\":null}")));
        assertTrue(ChatHeader.isHeader(JsJson.parse("{\"name\":\"x\"}")));
        assertTrue(ChatHeader.isHeader(JsJson.parse("{\"chat_metadata\":0}")));
        assertFalse(ChatHeader.isHeader(JsJson.parse("{\"mes\":\"x\"}")));
        assertFalse(ChatHeader.isHeader(JsJson.parse("[\"user_name\"]")));
        assertFalse(ChatHeader.isHeader(null));
    }

    @Test
    void metadataIsObjectLikeAndTheIntegrityTokenIsInIt() {
        JsonNode header = JsJson.parse("{\"chat_metadata\":{\"integrity\":\"t\"}}");
        assertEquals("{\"integrity\":\"t\"}", JsJson.compact(ChatHeader.metadata(header)));
        assertEquals("[]", JsJson.compact(ChatHeader.metadata(JsJson.parse("{\"chat_metadata\":[]}"))));
        assertNull(ChatHeader.metadata(JsJson.parse("{\"chat_metadata\":\"text\"}")));
        assertNull(ChatHeader.metadata(null));
        assertEquals("t", ChatHeader.integrity(header).textValue());
        assertNull(ChatHeader.integrity(JsJson.parse("{\"chat_metadata\":[]}")));
        assertNull(ChatHeader.integrity(null));
    }

    @Test
    void aListedChatEndsWithAMessageOrAHeader() {
        assertTrue(ChatMessage.isMessageOrHeader(JsJson.parse("{\"name\":\"A\"}")));
        assertTrue(ChatMessage.isMessageOrHeader(JsJson.parse("{\"character_name\":\"unused\"}")));
        assertTrue(ChatMessage.isMessageOrHeader(JsJson.parse("{\"chat_metadata\":{}}")));
        assertFalse(ChatMessage.isMessageOrHeader(JsJson.parse("{\"name\":\"\",\"mes\":\"x\"}")));
        assertFalse(ChatMessage.isMessageOrHeader(JsJson.parse("5")));
        assertFalse(ChatMessage.isMessageOrHeader(null));
    }
}

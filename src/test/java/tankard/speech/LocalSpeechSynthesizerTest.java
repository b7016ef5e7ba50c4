package tankard.speech;

import org.junit.jupiter.api.Test;
import tankard.core.Refusal;
import tankard.json.JsJson;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Base64;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class LocalSpeechSynthesizerTest {
    private static float[] speaker(String base64) {
        return LocalSpeechSynthesizer.speaker(JsJson.parse(JsJson.object().put("speaker", base64).toString()).path("speaker"));
    }

    @Test
    void theSpeakerIsReadAsNodesBase64ReadsItLittleEndianFloats() {
        float[] values = {1.5f, -0.25f, 3e-7f, 1023.75f, -8f, 0.1f};
        ByteBuffer bytes = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (float value : values) {
            bytes.putFloat(value);
        }
        byte[] raw = bytes.array();
        String plain = Base64.getEncoder().encodeToString(raw);
        assertArrayEquals(values, speaker(plain));
        assertArrayEquals(values, speaker(Base64.getUrlEncoder().withoutPadding().encodeToString(raw)), "URL-safe");
        assertArrayEquals(values, speaker(Base64.getMimeEncoder(8, "\r\n".getBytes()).encodeToString(raw)), "broken lines");
        assertArrayEquals(values, speaker("data:application/octet-stream;base64," + plain), "a data URL");
    }

    @Test
    void aSpeakerOfNoWholeFloatsIsRefused() {
        for (String bad : new String[]{"", "AAAAAAA=", "AA", "data:nothing", "data:x,"}) {
            assertThrows(Refusal.class, () -> speaker(bad), bad);
        }
    }
}

package tankard.character;

import org.junit.jupiter.api.Test;
import tankard.testing.Fixtures;
import tankard.util.LenientBase64;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class CardWriterTest {
    private static String decoded(PngChunks.Text text) {
        return new String(LenientBase64.decode(text.text()), StandardCharsets.UTF_8);
    }

    @Test
    void replacesOldCardChunksWhateverTheirCaseAndKeepsTheRest() {
        byte[] png = Fixtures.withText(Fixtures.plainPng(), "Chara", Fixtures.base64("{\"name\":\"old\"}"));
        png = Fixtures.withText(png, "CCV3", Fixtures.base64("{\"name\":\"older\"}"));
        png = Fixtures.withText(png, "Title", "kept");
        byte[] written = CardWriter.write(png, "{\"name\":\"new\",\"spec\":\"chara_card_v2\",\"spec_version\":\"2.0\",\"n\":1.50}");
        List<PngChunks.Text> texts = PngChunks.texts(written);
        assertEquals(List.of("Title", "chara", "ccv3"), texts.stream().map(PngChunks.Text::keyword).toList());
        assertEquals("{\"name\":\"new\",\"spec\":\"chara_card_v2\",\"spec_version\":\"2.0\",\"n\":1.50}", decoded(texts.get(1)));
        assertEquals("{\"name\":\"new\",\"spec\":\"chara_card_v3\",\"spec_version\":\"3.0\",\"n\":1.5}", decoded(texts.get(2)),
                "spec members replaced in place; the rest re-serialized as JSON.stringify does");
        assertEquals("IEND", PngChunks.read(written).get(PngChunks.read(written).size() - 1).type());
    }

    @Test
    void appendsTheSpecToV1JsonAndWritesOnlyCharaForNonJson() {
        List<PngChunks.Text> v1 = PngChunks.texts(CardWriter.write(Fixtures.plainPng(), "{\"name\":\"é\"}"));
        assertEquals("{\"name\":\"é\",\"spec\":\"chara_card_v3\",\"spec_version\":\"3.0\"}", decoded(v1.get(1)));
        List<PngChunks.Text> broken = PngChunks.texts(CardWriter.write(Fixtures.plainPng(), "not json"));
        assertEquals(List.of("chara"), broken.stream().map(PngChunks.Text::keyword).toList());
    }

    @Test
    void refusesWhatIsNotAPng() {
        assertThrows(CardFormatException.class, () -> CardWriter.write("GIF89a".getBytes(StandardCharsets.US_ASCII), "{}"));
    }
}

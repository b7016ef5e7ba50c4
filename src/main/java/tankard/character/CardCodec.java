package tankard.character;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.JsJson;
import tankard.json.Utf8;
import tankard.util.LenientBase64;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;

/**
 * Reads cards out of card files (ST: src/character-card-parser.js, read). Works on bytes in memory, or reads a card
 * file piecewise.
 */
public final class CardCodec {
    private CardCodec() {
    }

    /**
     * A PNG card: the first {@code ccv3} {@code tEXt} chunk when there is one, else the first {@code chara}
     * chunk (keywords compared ignoring case), base64-decoded leniently, read as UTF-8 and parsed.
     */
    public static CardData readPng(byte[] png) {
        return fromTexts(PngChunks.texts(png));
    }

    /**
     * A PNG card file's card text, undecoded (see {@link #readJson}), reading only its chunk headers and text
     * chunks (see {@link PngChunks}).
     */
    public static byte[] readPngText(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            return cardText(PngChunks.texts(channel));
        }
    }

    /** A PNG card's card text, undecoded, as {@link #readPngText(Path)} reads it from a file. */
    public static byte[] readPngText(byte[] png) {
        return cardText(PngChunks.cardTexts(png));
    }

    private static CardData fromTexts(List<PngChunks.Text> texts) {
        return parse(cardText(texts));
    }

    /** The text of the chunk that holds the card, base64-decoded. */
    private static byte[] cardText(List<PngChunks.Text> texts) {
        if (texts.isEmpty()) {
            throw new CardFormatException("No PNG metadata");
        }
        PngChunks.Text card = find(texts, "ccv3");
        if (card == null) {
            card = find(texts, "chara");
        }
        if (card == null) {
            throw new CardFormatException("No character data in the PNG metadata");
        }
        return LenientBase64.decode(card.bytes());
    }

    /** Card JSON text: a JSON card file, or the text of a PNG card's chunk. */
    public static CardData readJson(byte[] json) {
        return parse(json);
    }

    /**
     * Card JSON must hold an object; ST cannot make a character of anything else. The bytes are read as ST's
     * {@code toString("utf8")} reads them: where they are not well-formed UTF-8 (rare: most cards are), as the
     * text they decode to with replacement characters.
     */
    private static CardData parse(byte[] bytes) {
        byte[] utf8 = Utf8.isWellFormed(bytes) ? bytes : new String(bytes, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8);
        JsonNode json = JsJson.tryParse(utf8);
        if (!(json instanceof ObjectNode object)) {
            throw new CardFormatException(json == null ? "The card data is not valid JSON" : "The card data is not a JSON object");
        }
        return new CardData(utf8, object);
    }

    private static PngChunks.Text find(List<PngChunks.Text> texts, String keyword) {
        for (PngChunks.Text text : texts) {
            if (text.keyword().toLowerCase(Locale.ROOT).equals(keyword)) {
                return text;
            }
        }
        return null;
    }
}

package tankard.character;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The templates copied from canonical card text are those the parse-and-normalize route makes of it. */
class CanonicalCardTest {
    private static final String[] TOP_KEYS = {"spec", "spec_version", "data", "name", "description", "personality",
            "scenario", "first_mes", "mes_example", "avatar", "chat", "create_date", "talkativeness", "fav", "tags",
            "json_data", "date_added", "chat_size", "date_last_chat", "data_size", "creatorcomment", "shallow", "other"};
    private static final String[] DATA_KEYS = {"name", "description", "personality", "scenario", "first_mes",
            "mes_example", "tags", "extensions", "character_version", "creator", "creator_notes", "character_book",
            "alternate_greetings", "system_prompt", "group_only_greetings"};
    private static final String[] EXTENSION_KEYS = {"fav", "talkativeness", "world", "depth_prompt", "regex_scripts"};

    @Test
    void canonicalCardsGiveTheTemplatesTheirParsedTreeGives() {
        Random random = new Random(16);
        int copied = 0;
        for (int n = 0; n < 4000; n++) {
            byte[] text = JsJson.compactBytes(card(random));
            String avatar = random.nextInt(5) == 0 ? "Odd \"name\" ü.png" : "Card" + n + ".png";
            ListTemplate.Pair canonical = CanonicalCard.templates(text, avatar);
            if (canonical != null) {
                copied++;
                assertListedAsParsed(canonical, text, avatar);
            }
        }
        assertTrue(copied > 1800, "most generated cards are copied, not parsed: " + copied);
    }

    @Test
    void brokenTextIsNeverCopiedWrong() {
        Random random = new Random(17);
        byte[] structural = "{}[]\",:\\0tn-".getBytes(StandardCharsets.US_ASCII);
        int mutants = 0;
        for (int n = 0; n < 600; n++) {
            byte[] text = JsJson.compactBytes(card(random));
            for (int m = 0; m < 10; m++) {
                byte[] broken = text.clone();
                int at = random.nextInt(broken.length);
                switch (random.nextInt(3)) {
                    case 0 -> broken[at] = structural[random.nextInt(structural.length)];
                    case 1 -> broken = Arrays.copyOf(broken, at); // cut short
                    default -> broken[at] = (byte) random.nextInt(256);
                }
                ListTemplate.Pair canonical = CanonicalCard.templates(broken, "a.png");
                if (canonical == null) {
                    continue;
                }
                mutants++;
                assertListedAsParsed(canonical, broken, "a.png");
            }
        }
        assertTrue(mutants > 100, "some changes leave canonical cards (a changed letter): " + mutants);
    }

    @Test
    void cardsAsStWritesThemAreCopied() {
        String card = "{\"name\":\"Ann\",\"description\":\"d\",\"spec\":\"chara_card_v2\",\"spec_version\":\"2.0\","
                + "\"data\":{\"name\":\"Ann\",\"description\":\"d\",\"tags\":[\"a\",\"b\"],\"extensions\":{\"fav\":true,\"world\":\"W\"}},"
                + "\"chat\":\"Ann - 2024-1-1@12h00m00s\",\"create_date\":\"2024-1-1@12h00m00s\",\"avatar\":\"none\"}";
        ListTemplate.Pair pair = CanonicalCard.templates(card.getBytes(StandardCharsets.UTF_8), "Ann.png");
        assertNotNull(pair);
        assertEquals("{\"name\":\"Ann\",\"description\":\"d\",\"spec\":\"chara_card_v2\",\"spec_version\":\"2.0\","
                + "\"data\":{\"name\":\"Ann\",\"description\":\"d\",\"tags\":[\"a\",\"b\"],\"extensions\":{\"fav\":true,\"world\":\"W\"}},"
                + "\"chat\":\"Ann - 2024-1-1@12h00m00s\",\"create_date\":\"2024-1-1@12h00m00s\",\"avatar\":\"Ann.png\","
                + "\"fav\":true,\"tags\":[\"a\",\"b\"],\"json_data\":" + JsJson.compact(TextNode.valueOf(card))
                + ",\"date_added\":,\"chat_size\":,\"date_last_chat\":,\"data_size\":22}", text(pair.full()));
        assertEquals("{\"shallow\":true,\"name\":\"Ann\",\"avatar\":\"Ann.png\",\"chat\":\"Ann - 2024-1-1@12h00m00s\","
                + "\"fav\":true,\"date_added\":,\"create_date\":\"2024-1-1@12h00m00s\",\"date_last_chat\":,\"chat_size\":,"
                + "\"data_size\":22,\"tags\":[\"a\",\"b\"],\"data\":{\"name\":\"Ann\",\"character_version\":\"\",\"creator\":\"\","
                + "\"creator_notes\":\"\",\"tags\":[\"a\",\"b\"],\"extensions\":{\"fav\":true,\"world\":\"W\"}}}", text(pair.shallow()));
    }

    @Test
    void cardsInAnotherSpellingAreCopiedFromTheirRespelling() {
        for (String card : new String[]{
                "{\"spec\":\"v2\", \"data\":{\"name\":\"A\"}}", // whitespace
                " {\"spec\":\"v2\",\"data\":{\"name\":\"\\u0041\\u00e9\\/\"}}\n", // escapes JSON.stringify does not write
                "{\"spec\":\"v2\",\"data\":{\"name\":\"A\",\"n\":1.0,\"m\":[1e2,-0,9007199254740993]}}", // numbers
                "{\"data\" : {\"name\" : \"A\", \"extensions\" : {\"talkativeness\" : 0.50}}, \"spec\" : \"v3\", \"create_date\": \"\"}"}) {
            byte[] text = card.getBytes(StandardCharsets.UTF_8);
            ListTemplate.Pair copied = CanonicalCard.templates(text, "a.png");
            assertNotNull(copied, card);
            assertListedAsParsed(copied, text, "a.png");
        }
    }

    @Test
    void textOnlyAParseReadsOrOfAnotherShapeIsLeftToTheParser() {
        for (String card : new String[]{
                "{\"spec\":\"v2\",\"data\":{\"name\":\"A\",\"name\":\"B\"}}", // a duplicate key
                "{\"spec\":\"v2\",\"data\":{\"name\":\"A\",\"1\":1}}", // an integer-like key, which JavaScript moves
                "{\"name\":\"A\"}", // V1
                "{\"spec\":\"v2\",\"data\":[\"name\"],\"name\":\"A\"}", // data not an object
                "{\"spec\":\"v2\",\"data\":{\"name\":\"\"}}", // not listed
                "{\"spec\":\"v2\",\"data\":{\"name\":7}}", // a name that is not a string
                "\uFEFF{\"spec\":\"v2\",\"data\":{\"name\":\"A\"}}",
                "[1]", ""}) {
            assertNull(CanonicalCard.templates(card.getBytes(StandardCharsets.UTF_8), "a.png"), card);
        }
        byte[] badUtf8 = {'{', '"', 's', 'p', 'e', 'c', '"', ':', '"', (byte) 0xC3, '"', ',', '"', 'd', 'a', 't', 'a', '"', ':',
                '{', '"', 'n', 'a', 'm', 'e', '"', ':', '"', 'A', '"', '}', '}'};
        assertNull(CanonicalCard.templates(badUtf8, "a.png"));
    }

    private static void assertListedAsParsed(ListTemplate.Pair canonical, byte[] text, String avatar) {
        ListTemplate.Pair parsed = CharacterService.parsedTemplates(text, avatar);
        assertNotNull(parsed, "listed both ways: " + new String(text, StandardCharsets.UTF_8));
        assertSame(parsed.full(), canonical.full(), text);
        assertSame(parsed.shallow(), canonical.shallow(), text);
    }

    private static void assertSame(ListTemplate expected, ListTemplate actual, byte[] card) {
        String context = "card " + new String(card, StandardCharsets.UTF_8);
        assertEquals(text(expected), text(actual), context);
        assertArrayEquals(expected.holes(), actual.holes(), context);
        assertArrayEquals(expected.kinds(), actual.kinds(), context);
    }

    private static String text(ListTemplate template) {
        return new String(template.bytes(), StandardCharsets.UTF_8);
    }

    private static ObjectNode card(Random random) {
        ObjectNode card = JsJson.object();
        List<String> keys = new ArrayList<>(Arrays.asList(TOP_KEYS));
        Collections.shuffle(keys, random);
        for (String key : keys) {
            if (key.equals("spec") || key.equals("data") || random.nextInt(3) == 0) {
                card.set(key, switch (key) {
                    case "data" -> random.nextInt(40) == 0 ? value(random, 1) : data(random);
                    case "name", "chat" -> random.nextInt(4) == 0 ? value(random, 1) : string(random);
                    case "create_date" -> random.nextBoolean() ? falsy(random) : value(random, 1);
                    default -> value(random, 2);
                });
            }
        }
        if (random.nextInt(40) == 0) {
            card.remove("spec");
        }
        return card;
    }

    private static ObjectNode data(Random random) {
        ObjectNode data = JsJson.object();
        List<String> keys = new ArrayList<>(Arrays.asList(DATA_KEYS));
        Collections.shuffle(keys, random);
        for (String key : keys) {
            if (key.equals("name") ? random.nextInt(10) > 0 : random.nextInt(3) > 0) {
                data.set(key, switch (key) {
                    case "name" -> random.nextInt(10) == 0 ? value(random, 1) : string(random);
                    case "extensions" -> random.nextInt(10) == 0 ? value(random, 1) : extensions(random);
                    default -> value(random, 3);
                });
            }
        }
        return data;
    }

    private static ObjectNode extensions(Random random) {
        ObjectNode extensions = JsJson.object();
        for (String key : EXTENSION_KEYS) {
            if (random.nextBoolean()) {
                extensions.set(key, value(random, 2));
            }
        }
        return extensions;
    }

    private static JsonNode falsy(Random random) {
        return switch (random.nextInt(4)) {
            case 0 -> TextNode.valueOf("");
            case 1 -> LongNode.valueOf(0);
            case 2 -> BooleanNode.FALSE;
            default -> NullNode.getInstance();
        };
    }

    private static JsonNode value(Random random, int depth) {
        int kind = random.nextInt(depth > 0 ? 8 : 6);
        return switch (kind) {
            case 0, 1 -> string(random);
            // mostly integers JavaScript prints as they are written; now and then one it would round
            case 2 -> LongNode.valueOf(random.nextInt(3) == 0 ? 0 : random.nextLong() >> (random.nextInt(20) == 0 ? 1 : 20 + random.nextInt(44)));
            case 3 -> DecimalNode.valueOf(new BigDecimal(random.nextInt(3) == 0 ? "0.5" : random.nextBoolean()
                    ? "1.25e-9" : "-31.0625"));
            case 4 -> BooleanNode.valueOf(random.nextBoolean());
            case 5 -> NullNode.getInstance();
            case 6 -> {
                ArrayNode array = JsJson.array();
                for (int i = random.nextInt(4); i > 0; i--) {
                    array.add(value(random, depth - 1));
                }
                yield array;
            }
            default -> {
                ObjectNode object = JsJson.object();
                for (int i = random.nextInt(4); i > 0; i--) {
                    object.set("k" + random.nextInt(6) + (random.nextBoolean() ? "\"é" : ""), value(random, depth - 1));
                }
                yield object;
            }
        };
    }

    /** Text with what JSON.stringify escapes and what it does not: quotes, controls, non-ASCII, lone surrogates. */
    private static TextNode string(Random random) {
        String[] pieces = {"plain words ", "\"", "\\", "\n", "\t", "\u0001", "\u007f", "é", "日本", "\uD83D\uDE00",
                "\uD800", "\uDC00", "{\"}", "@", " - ", "?"};
        StringBuilder s = new StringBuilder();
        for (int i = random.nextInt(12); i > 0; i--) {
            s.append(pieces[random.nextInt(pieces.length)]);
        }
        return TextNode.valueOf(s.toString());
    }
}

package tankard.content;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tankard's own default content: present, well-formed, and shaped the way the ST frontend reads it. */
class DefaultContentTest {
    private static final Path ROOT = DefaultContent.bundledFolder();
    private static final List<DefaultContent.Item> ITEMS = new DefaultContent(List.of(ROOT)).items();
    private static final Set<String> TYPES = Set.of("settings", "character", "sprites", "background", "world",
            "avatar", "theme", "workflow", "kobold_preset", "openai_preset", "novel_preset", "textgen_preset",
            "instruct", "context", "moving_ui", "quick_replies", "sysprompt", "reasoning", "error_page", "stylesheet");

    @Test
    void theIndexListsEveryShippedFileOnceWithAKnownType() throws IOException {
        Set<String> listed = new HashSet<>();
        for (DefaultContent.Item item : ITEMS) {
            assertTrue(TYPES.contains(item.type()), item.type());
            assertTrue(Files.isRegularFile(item.source()), item.filename());
            assertTrue(listed.add(item.filename()), "listed twice: " + item.filename());
        }
        Set<String> shipped = new HashSet<>();
        try (Stream<Path> walk = Files.walk(ROOT)) {
            walk.filter(Files::isRegularFile).map(p -> ROOT.relativize(p).toString().replace('\\', '/'))
                    .filter(name -> !name.equals("index.json")).forEach(shipped::add);
        }
        assertEquals(shipped, listed);
        assertEquals("settings.json", ITEMS.get(0).filename());
    }

    @Test
    void everyJsonFileIsInStsPrettyLayout() throws IOException {
        for (Path file : jsonFiles()) {
            byte[] bytes = Files.readAllBytes(file);
            JsonNode parsed = JsJson.parse(bytes);
            assertEquals(JsJson.pretty(parsed), new String(bytes, StandardCharsets.UTF_8), file.toString());
        }
    }

    @Test
    void theDefaultCardCarriesV2InCharaAndV3InCcv3() throws IOException {
        byte[] png = Files.readAllBytes(ROOT.resolve("characters/default_Wren.png"));
        assertTrue(png.length < 200 * 1024, "card is " + png.length + " bytes");
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
        assertEquals(512, image.getWidth());
        assertEquals(768, image.getHeight());

        List<DefaultContentGenerator.Chunk> chunks = DefaultContentGenerator.chunks(png);
        List<String> types = chunks.stream().map(DefaultContentGenerator.Chunk::type).toList();
        assertEquals("IHDR", types.get(0));
        assertEquals(List.of("tEXt", "tEXt", "IEND"), types.subList(types.size() - 3, types.size()));
        Map<String, String> texts = DefaultContentGenerator.textChunks(png);
        assertEquals(List.of("chara", "ccv3"), new ArrayList<>(texts.keySet()));

        JsonNode v2 = decode(texts.get("chara"));
        JsonNode v3 = decode(texts.get("ccv3"));
        assertEquals("chara_card_v2", v2.path("spec").textValue());
        assertEquals("2.0", v2.path("spec_version").textValue());
        assertEquals("chara_card_v3", v3.path("spec").textValue());
        assertEquals("3.0", v3.path("spec_version").textValue());
        ObjectNode sameAsV2 = ((ObjectNode) v3).deepCopy();
        sameAsV2.put("spec", "chara_card_v2");
        sameAsV2.put("spec_version", "2.0");
        assertEquals(v2, sameAsV2);
        // The committed PNG was generated from the committed card source.
        String source = Files.readString(DefaultContentGenerator.CARD_SOURCE, StandardCharsets.UTF_8);
        assertEquals(JsJson.compact(JsJson.parse(source)), new String(Base64.getDecoder().decode(texts.get("chara")),
                StandardCharsets.UTF_8));

        JsonNode data = v2.path("data");
        for (String field : List.of("name", "description", "personality", "scenario", "first_mes", "mes_example")) {
            assertFalse(data.path(field).asText().isBlank(), field);
            assertEquals(data.path(field), v2.path(field), "top-level mirror of " + field);
        }
        for (String field : List.of("creator_notes", "system_prompt", "post_history_instructions", "creator",
                "character_version")) {
            assertTrue(data.path(field).isTextual(), field);
        }
        assertEquals(data.path("creator_notes"), v2.path("creatorcomment"));
        assertEquals(data.path("tags"), v2.path("tags"));
        assertTrue(data.path("alternate_greetings").size() >= 2);
        data.path("alternate_greetings").forEach(g -> assertFalse(g.asText().isBlank()));
        JsonNode extensions = data.path("extensions");
        assertEquals("0.5", extensions.path("talkativeness").asText());
        assertTrue(extensions.path("fav").isBoolean());
        assertEquals("", extensions.path("world").textValue());
        assertEquals(4, extensions.path("depth_prompt").path("depth").intValue());
        assertEquals("system", extensions.path("depth_prompt").path("role").textValue());
    }

    @Test
    void theImagesDecode() throws IOException {
        for (DefaultContent.Item item : ITEMS) {
            if (Set.of("character", "avatar", "background").contains(item.type())) {
                assertNotNull(ImageIO.read(item.source().toFile()), item.filename());
            }
        }
    }

    @Test
    void instructTemplatesHaveEveryFieldTheFrontendEdits() {
        Set<String> contexts = new HashSet<>(names("context"));
        for (JsonNode template : templates("instruct")) {
            for (String field : List.of("input_sequence", "input_suffix", "output_sequence", "output_suffix",
                    "system_sequence", "system_suffix", "first_input_sequence", "last_input_sequence",
                    "first_output_sequence", "last_output_sequence", "last_system_sequence", "stop_sequence",
                    "story_string_prefix", "story_string_suffix", "user_alignment_message", "activation_regex")) {
                assertTrue(template.path(field).isTextual(), template.path("name") + " " + field);
            }
            for (String field : List.of("wrap", "macro", "system_same_as_user", "skip_examples",
                    "sequences_as_stop_strings")) {
                assertTrue(template.path(field).isBoolean(), template.path("name") + " " + field);
            }
            assertTrue(Set.of("none", "force", "always").contains(template.path("names_behavior").textValue()));
            assertFalse(template.has("system_prompt"), "system prompts live in sysprompt/ since ST 1.12.6");
            assertTrue(contexts.contains(template.path("name").textValue()), "context for " + template.path("name"));
        }
    }

    @Test
    void contextTemplatesAreCompleteSoTheFrontendDoesNotRewriteThem() {
        for (JsonNode template : templates("context")) {
            String story = template.path("story_string").textValue();
            assertTrue(story.contains("{{anchorBefore}}") && story.contains("{{anchorAfter}}"), story);
            for (String field : List.of("example_separator", "chat_start")) {
                assertTrue(template.path(field).isTextual(), field);
            }
            for (String field : List.of("use_stop_strings", "names_as_stop_strings", "always_force_name2",
                    "trim_sentences", "single_line")) {
                assertTrue(template.path(field).isBoolean(), field);
            }
            for (String field : List.of("story_string_position", "story_string_depth", "story_string_role")) {
                assertTrue(template.path(field).isInt(), field);
            }
        }
    }

    @Test
    void systemPromptsAndReasoningFormatsHaveTheirFields() {
        for (JsonNode prompt : templates("sysprompt")) {
            assertTrue(prompt.path("content").isTextual() && prompt.path("post_history").isTextual());
        }
        for (JsonNode format : templates("reasoning")) {
            for (String field : List.of("prefix", "suffix", "separator")) {
                assertTrue(format.path(field).isTextual(), field);
            }
        }
    }

    @Test
    void theChatCompletionPresetOrdersOnlyPromptsItDefines() {
        JsonNode preset = json("presets/openai/Default.json");
        Set<String> identifiers = new HashSet<>();
        preset.path("prompts").forEach(p -> identifiers.add(p.path("identifier").textValue()));
        assertTrue(identifiers.containsAll(List.of("main", "chatHistory", "dialogueExamples", "charDescription",
                "worldInfoBefore", "worldInfoAfter", "personaDescription", "jailbreak", "nsfw")));
        JsonNode global = preset.path("prompt_order").get(0);
        assertEquals(100001, global.path("character_id").intValue());
        global.path("order").forEach(o -> assertTrue(identifiers.contains(o.path("identifier").textValue())));
        assertEquals(identifiers.size(), global.path("order").size());
    }

    @Test
    void settingsStartTheOnboardingAndNameOnlyShippedContent() {
        JsonNode settings = json("settings.json");
        assertEquals(Boolean.TRUE, settings.path("firstRun").booleanValue());
        Set<String> saved = Set.of("firstRun", "accountStorage", "currentVersion", "username", "active_character",
                "active_group", "user_avatar", "amount_gen", "max_context", "main_api", "world_info_settings",
                "textgenerationwebui_settings", "swipes", "horde_settings", "power_user", "extension_settings",
                "tags", "tag_map", "nai_settings", "kai_settings", "oai_settings", "background", "proxies",
                "selected_proxy");
        settings.fieldNames().forEachRemaining(key -> assertTrue(saved.contains(key), key));
        assertTrue(settings.path("amount_gen").isInt() && settings.path("max_context").isInt());

        assertTrue(baseNames("avatar").contains(settings.path("user_avatar").textValue()));
        assertTrue(baseNames("background").contains(settings.path("background").path("name").textValue()));
        assertEquals("url(\"backgrounds/" + settings.path("background").path("name").textValue() + "\")",
                settings.path("background").path("url").textValue());
        assertTrue(presetNames("textgen_preset").contains(
                settings.path("textgenerationwebui_settings").path("preset").textValue()));
        assertTrue(presetNames("kobold_preset").contains(settings.path("kai_settings").path("preset_settings").textValue()));
        assertTrue(presetNames("novel_preset").contains(
                settings.path("nai_settings").path("preset_settings_novel").textValue()));
        assertTrue(presetNames("openai_preset").contains(
                settings.path("oai_settings").path("preset_settings_openai").textValue()));

        JsonNode power = settings.path("power_user");
        // The frontend replaces these objects whole (Object.assign), so each must be complete.
        JsonNode instruct = power.path("instruct");
        JsonNode chosenInstruct = template("instruct", instruct.path("preset").textValue());
        chosenInstruct.fieldNames().forEachRemaining(field -> {
            if (!field.equals("name")) {
                assertEquals(chosenInstruct.path(field), instruct.path(field), "power_user.instruct." + field);
            }
        });
        assertTrue(instruct.path("enabled").isBoolean() && instruct.path("bind_to_context").isBoolean());
        JsonNode context = power.path("context");
        JsonNode chosenContext = template("context", context.path("preset").textValue());
        for (String field : List.of("story_string", "example_separator", "chat_start", "use_stop_strings",
                "names_as_stop_strings", "story_string_position", "story_string_depth", "story_string_role")) {
            assertEquals(chosenContext.path(field), context.path(field), "power_user.context." + field);
        }
        JsonNode sysprompt = power.path("sysprompt");
        assertEquals(template("sysprompt", sysprompt.path("name").textValue()).path("content"), sysprompt.path("content"));
        JsonNode reasoning = power.path("reasoning");
        JsonNode chosenReasoning = template("reasoning", reasoning.path("name").textValue());
        assertEquals(chosenReasoning.path("prefix"), reasoning.path("prefix"));
        assertEquals(chosenReasoning.path("suffix"), reasoning.path("suffix"));
        assertTrue(power.path("personas").isObject() && power.path("persona_descriptions").isObject());
    }

    // ---- helpers

    private static List<Path> jsonFiles() throws IOException {
        try (Stream<Path> walk = Files.walk(ROOT)) {
            return walk.filter(p -> p.toString().endsWith(".json")).toList();
        }
    }

    private static JsonNode decode(String base64) {
        return JsJson.parse(Base64.getDecoder().decode(base64));
    }

    private static JsonNode json(String relative) {
        try {
            return JsJson.parse(Files.readAllBytes(ROOT.resolve(relative)));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static List<JsonNode> templates(String type) {
        List<JsonNode> result = ITEMS.stream().filter(i -> i.type().equals(type)).map(i -> json(i.filename())).toList();
        assertFalse(result.isEmpty(), type);
        for (int i = 0; i < result.size(); i++) {
            // The frontend identifies these by the name inside; keep it equal to the file name.
            String file = ITEMS.stream().filter(it -> it.type().equals(type)).toList().get(i).filename();
            assertEquals(file.substring(file.lastIndexOf('/') + 1).replace(".json", ""),
                    result.get(i).path("name").textValue());
        }
        return result;
    }

    private static JsonNode template(String type, String name) {
        return templates(type).stream().filter(t -> name.equals(t.path("name").textValue())).findFirst()
                .orElseThrow(() -> new AssertionError("no " + type + " named " + name));
    }

    private static List<String> names(String type) {
        return templates(type).stream().map(t -> t.path("name").textValue()).toList();
    }

    private static List<String> baseNames(String type) {
        return ITEMS.stream().filter(i -> i.type().equals(type))
                .map(i -> i.filename().substring(i.filename().lastIndexOf('/') + 1)).toList();
    }

    private static List<String> presetNames(String type) {
        return baseNames(type).stream().map(n -> n.substring(0, n.length() - ".json".length())).toList();
    }
}

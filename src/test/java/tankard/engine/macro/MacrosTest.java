package tankard.engine.macro;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tankard.json.JsJson;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * substituteParams with ST 1.18's macro engine. The expected texts are what ST's own engine answers for the same
 * inputs and state (checked against public/scripts/macros/ run in Node).
 */
class MacrosTest {
    /** 2026-01-01T10:00Z is 5:00 AM in New York. */
    static final ZonedDateTime NOW = Instant.parse("2026-01-01T10:00:00Z").atZone(ZoneId.of("America/New_York"));

    static final MacroEnv.CardFields CARD = new MacroEnv.CardFields("Desc of {{char}}", "kind", "", "Persona {{user}}",
            "<START>\n{{user}}: hi\n{{char}}: hello\n<START>\n{{char}}: bye", "SYS", "JB", "DP", "CN", "1.2", "First!",
            List.of("Alt1", "Alt2"));

    static ObjectNode settings(String mainApi, boolean instruct) {
        return (ObjectNode) JsJson.parse("""
                {"main_api": "%s",
                 "power_user": {
                   "instruct": {"enabled": %s, "input_sequence": "<|user|>", "output_sequence": "<|assistant|>",
                                "first_output_sequence": ""},
                   "sysprompt": {"enabled": true, "content": "Be {{char}}."},
                   "context": {"example_separator": "***", "chat_start": "START"},
                   "reasoning": {"prefix": "<think>"}},
                 "extension_settings": {"variables": {"global": {"g": "G!", "gn": 3}}, "note": {"default": "DAN"}}}
                """.formatted(mainApi, instruct));
    }

    static ArrayNode chat() {
        return (ArrayNode) JsJson.parse("""
                [{"name": "Alice", "is_user": true, "mes": "hello there", "send_date": "2026-01-01T09:00:00.000Z"},
                 {"name": "Bramble", "is_user": false, "mes": "general kenobi", "swipes": ["a", "general kenobi", "c"],
                  "swipe_id": 1, "send_date": "2026-01-01T09:05:00.000Z"},
                 {"name": "Alice", "is_user": true, "mes": "ok", "send_date": "2026-01-01T09:59:00.000Z"}]
                """);
    }

    static ObjectNode metadata() {
        return (ObjectNode) JsJson.parse("""
                {"variables": {"num": "5", "word": "abc", "empty": "", "arr": "[1,2]", "zero": "0", "flag": "false"},
                 "lastInContextMessageId": 1, "note_prompt": "AN"}
                """);
    }

    static MacroEnv env(ObjectNode settings, List<MacroEnv.GroupMember> group, ObjectNode metadata) {
        return new MacroEnv("Alice", "Bramble", settings, CARD, "Bramble.png", group, chat(), metadata, "Bramble - chat", "gpt-4o",
                8192, 300, "typed", "normal", NOW, (examples, user, character) -> examples.stream()
                .map(example -> "[" + user + "/" + character + "]" + example).toList(),
                key -> key.equals("lore") ? "LORE" : null);
    }

    static Macros macros() {
        return new Macros(env(settings("openai", false), null, metadata()));
    }

    static Stream<Arguments> sillyTavernAnswers() {
        return Stream.of(
                Arguments.of("{{user}} {{char}} {{USER}} {{Char}} {{ user }} {{user }}",
                        "Alice Bramble Alice Bramble Alice Alice"),
                Arguments.of("<USER> <BOT> <char> <GROUP> <CharIfNotGroup>",
                        "Alice Bramble Bramble Bramble Bramble"),
                Arguments.of("{{group}} {{groupNotMuted}} {{charIfNotGroup}} {{notChar}}",
                        "Bramble Bramble Bramble Alice"),
                Arguments.of("{{description}}|{{personality}}|{{scenario}}|{{persona}}|{{charPrompt}}|{{charInstruction}}|{{charJailbreak}}|{{charDepthPrompt}}|{{creatorNotes}}|{{charVersion}}|{{version}}|{{char_version}}",
                        "Desc of {{char}}|kind||Persona {{user}}|SYS|JB|{{charJailbreak}}|DP|CN|1.2|1.2|1.2"),
                Arguments.of("{{mesExamples}}",
                        "<START>\n{{user}}: hi\n{{char}}: hello\n<START>\n{{char}}: bye\n"),
                Arguments.of("{{mesExamplesRaw}}",
                        "<START>\n{{user}}: hi\n{{char}}: hello\n<START>\n{{char}}: bye"),
                Arguments.of("{{greeting}}|{{greeting::1}}|{{greeting::2}}|{{greeting::3}}|{{charFirstMessage::x}}",
                        "First!|Alt1|Alt2||{{charFirstMessage::x}}"),
                Arguments.of("{{lastMessage}}|{{lastMessageId}}|{{lastUserMessage}}|{{lastCharMessage}}|{{firstIncludedMessageId}}|{{lastSwipeId}}|{{currentSwipeId}}|{{allChatRange}}",
                        "ok|2|ok|general kenobi|1|||0-2"),
                Arguments.of("a{{newline}}b{{newline::3}}c{{space::2}}d{{space}}e{{noop}}f",
                        "a\nb\n\n\nc  d ef"),
                Arguments.of("{{newline::x}} {{space::-1}}",
                        "{{newline::x}} {{space::-1}}"),
                Arguments.of("line1\n{{trim}}\nline2",
                        "line1line2"),
                Arguments.of("A\n\n{{trim}}\n\nB {{TRIM}} C",
                        "AB  C"),
                Arguments.of("{{trim}}  x  {{/trim}}|",
                        "x|"),
                Arguments.of("{{trim}}\n  x\n  y\n{{/trim}}",
                        "x\ny"),
                Arguments.of("{{// comment}}x{{//}}y{{// a::b::c}}z{{comment hidden}}",
                        "xyz"),
                Arguments.of("{{//}}multi\nline{{///}}after",
                        "multi\nlineafter"),
                Arguments.of("{{original}}-{{original}}",
                        "ORIG-"),
                Arguments.of("{{reverse::abc}} {{reverse::}}",
                        "cba "),
                Arguments.of("{{time}} {{date}} {{weekday}} {{isotime}} {{isodate}}",
                        "5:00 AM January 1, 2026 Thursday 05:00 2026-01-01"),
                Arguments.of("{{time_UTC+2}} {{time_UTC-10}} {{time::UTC+5}} {{time::bogus}} {{time_utc+1}}",
                        "12:00 PM 12:00 AM 3:00 PM 5:00 AM 5:00 AM"),
                Arguments.of("{{datetimeformat::YYYY-MM-DD HH:mm:ss}}|{{datetimeformat::LLLL}}|{{datetimeformat::dddd Do MMMM [at] h A}}|{{datetimeformat::ll lll l L LTS}}",
                        "2026-01-01 05:00:00|Thursday, January 1, 2026 5:00 AM|Thursday 1st January at 5 AM|Jan 1, 2026 Jan 1, 2026 5:00 AM 1/1/2026 01/01/2026 5:00:00 AM"),
                Arguments.of("{{datetimeformat::w ww W WW gggg GGGG Q Qo DDD DDDD E e d dd ddd X x Z ZZ a k kk SSS}}",
                        "1 01 1 01 2026 2026 1 1st 1 001 4 4 4 Th Thu 1767261600 1767261600000 -05:00 -0500 am 5 05 000"),
                Arguments.of("{{idle_duration}} {{idleDuration}}",
                        "an hour an hour"),
                Arguments.of("{{timeDiff::2023-01-01 12:00:00::2023-01-01 15:00:00}} {{timeDiff::2023-01-02::2023-01-01}} {{timeDiff::x::y}}",
                        "3 hours ago in a day Invalid date"),
                Arguments.of("{{if description}}yes{{/if}}|{{if scenario}}yes{{else}}no{{/if}}|{{if !scenario}}empty{{/if}}",
                        "yes|no|empty"),
                Arguments.of("{{if .num}}N{{/if}}{{if .zero}}Z{{else}}notZ{{/if}}{{if $g}}G{{/if}}{{if .missing}}M{{else}}noM{{/if}}",
                        "NnotZGnoM"),
                Arguments.of("{{if {{getvar::word}}}}  spaced  {{/if}}|{{#if .word}}  kept  {{/if}}|",
                        "spaced|  kept  |"),
                Arguments.of("{{if true}}\n    indented\n      more\n    back\n{{/if}}",
                        "indented\n  more\nback"),
                Arguments.of("{{if 1}}a{{if 0}}b{{else}}c{{/if}}d{{else}}e{{/if}}",
                        "acd"),
                Arguments.of("{{if user::inline}}",
                        "{{if user::inline}}"),
                Arguments.of("{{if false::inline}}x",
                        "{{if false::inline}}x"),
                Arguments.of("{{if}}x{{/if}}",
                        "{{if}}x{{/if}}"),
                Arguments.of("{{getvar::num}} {{getvar::word}} {{getvar::missing}} {{getvar::arr}} {{hasvar::num}} {{varexists::nope}} {{getglobalvar::g}} {{getglobalvar::gn}}",
                        "5 abc  [1,2] true false G! 3"),
                Arguments.of("{{setvar::a::1}}{{addvar::a::2}}{{getvar::a}} {{incvar::a}} {{decvar::word}} {{addvar::arr::3}}{{getvar::arr}} {{addvar::word::x}}{{getvar::word}}",
                        "3 4 abc-1 [1,2,\"3\"] abc-1x"),
                Arguments.of("{{setglobalvar::k::v}}{{getglobalvar::k}}{{incglobalvar::gn}}{{deletevar::num}}{{getvar::num}}|{{hasvar::num}}",
                        "v4|false"),
                Arguments.of("{{.num}} {{.word}} {{$g}} {{.num++}} {{.num}} {{.num--}} {{.x = hello {{user}} }}{{.x}} {{.x += !}}{{.x}}",
                        "5 abc G! 6 6 5 hello Alice hello Alice!"),
                Arguments.of("{{.missing || def}} {{.empty ?? d}} {{.missing ?? d2}} {{.zero || z}} {{.flag || f}} {{.new ||= set}}{{.new}} {{.new2 ??= s2}}{{.new2}}",
                        "def  d2 z f setset s2s2"),
                Arguments.of("{{.num == 5}} {{.num != 5}} {{.num > 3}} {{.num >= 5}} {{.num < 2}} {{.num <= 5}} {{.word > 1}} {{.num -= 2}}{{.num}}",
                        "true false true true false true false 3"),
                Arguments.of("{{unknown}} {{unknown::a::b}} {{Unknown arg {{user}}}} {{foo}}x{{/foo}} {{/bar}}",
                        "{{unknown}} {{unknown::a::b}} {{Unknown arg Alice}} {{foo}}x}} {{/bar}}"),
                Arguments.of("{ {user} } {{{user}}} {{{{user}}}} }}{{ {{ }} {{}} {{ 123}} {{!user}} {{?user}} {{#user}} {{>user}}",
                        "{ {user} } {Alice} {{Alice}} }}{{ {{ }} {{}} {{ 123}} Alice Alice Alice Alice"),
                Arguments.of("{{user",
                        "{{user"),
                Arguments.of("{{user}",
                        "{{user}"),
                Arguments.of("{{user::",
                        "{{user::"),
                Arguments.of("{{char}} {{user::",
                        "Bramble {{user::"),
                Arguments.of("text {{ unclosed and {{char}} end",
                        "text {{ unclosed and Bramble end"),
                Arguments.of("{{user.name}} {{char's}}",
                        "Alice Bramble"),
                Arguments.of("\\{\\{user\\}\\} {{user}} \\{{char}}",
                        "{{user}} Alice \\Bramble"),
                Arguments.of("{{setvar::a::b|c}}{{getvar::a}}",
                        "{{setvar::a::b|c}}"),
                Arguments.of("{{user|upper}}",
                        "{{user|upper}}"),
                Arguments.of("{{user::x}} {{char::}}",
                        "{{user::x}} {{char::}}"),
                Arguments.of("{{.}} {{$}} {{. x}} {{.a b}} {{.++}}",
                        "    {{.++}}"),
                Arguments.of("{{ .num }} {{.num++ }}",
                        "5 6"),
                Arguments.of("{{else}}x",
                        "x"),
                Arguments.of("{{if .num}}a{{else}}b{{else}}c{{/if}}",
                        "a"),
                Arguments.of("{{getvar::{{user}}}}",
                        ""),
                Arguments.of("{{setvar::n::{{char}}}}{{getvar::n}}",
                        "Bramble"),
                Arguments.of("{{instructUserPrefix}} {{instructOutput}} {{systemPrompt}} {{defaultSystemPrompt}} {{exampleSeparator}} {{chatStart}}",
                        "  Be {{char}}. Be {{char}}. *** START"),
                Arguments.of("{{setvar::::x}}{{getvar::}}",
                        "{{setvar::::x}}"),
                Arguments.of("{{getvar}}",
                        "{{getvar}}"),
                Arguments.of("{{newline::}}",
                        "{{newline::}}"),
                Arguments.of("{{time::}}",
                        "5:00 AM"),
                Arguments.of("{{user:x}}",
                        "{{user:x}}"),
                Arguments.of("{{if description}}\n# Title\n{{description}}\n{{/if}}\n\nafter",
                        "# Title\nDesc of {{char}}\n\nafter"),
                Arguments.of("nested {{if .num}}{{if .word}}both{{/if}}{{/if}}",
                        "nested both"),
                Arguments.of("{{IF description}}up{{/IF}} {{if description}}mixed{{/IF}}",
                        "up mixed"),
                Arguments.of("multi\r\n{{trim}}\r\nline",
                        "multiline"),
                Arguments.of("€ ünïcödé 😀 {{user}} 😀",
                        "€ ünïcödé 😀 Alice 😀"),
                Arguments.of("{{setvar::list::[]}}{{addvar::list::a}}{{addvar::list::b}}{{getvar::list}}",
                        "[\"a\",\"b\"]"));
    }

    @ParameterizedTest
    @MethodSource("sillyTavernAnswers")
    void substitutesAsSillyTavern(String content, String expected) {
        assertEquals(expected, macros().substitute(content, Macros.Options.original("ORIG")));
    }

    static Stream<Arguments> legacyAnswers() {
        return Stream.of(
                Arguments.of("{{user}} {{char}} {{USER}} {{Char}} {{ user }} {{user }}",
                        "Alice Bramble Alice Bramble {{ user }} {{user }}"),
                Arguments.of("<USER> <BOT> <char> <GROUP> <CharIfNotGroup>",
                        "Alice Bramble Bramble Bramble Bramble"),
                Arguments.of("{{group}} {{groupNotMuted}} {{charIfNotGroup}} {{notChar}}",
                        "Bramble Bramble Bramble Alice"),
                Arguments.of("{{description}}|{{personality}}|{{scenario}}|{{persona}}|{{charPrompt}}|{{charInstruction}}|{{charJailbreak}}|{{charDepthPrompt}}|{{creatorNotes}}|{{charVersion}}|{{version}}|{{char_version}}",
                        "Desc of Bramble|kind||Persona Alice|SYS|JB|JB|DP|CN|1.2|{{version}}|1.2"),
                Arguments.of("{{mesExamples}}",
                        "<START>\nAlice: hi\nBramble: hello\n<START>\nBramble: bye\n"),
                Arguments.of("{{mesExamplesRaw}}",
                        "<START>\nAlice: hi\nBramble: hello\n<START>\nBramble: bye"),
                Arguments.of("{{greeting}}|{{greeting::1}}|{{greeting::2}}|{{greeting::3}}|{{charFirstMessage::x}}",
                        "{{greeting}}|{{greeting::1}}|{{greeting::2}}|{{greeting::3}}|{{charFirstMessage::x}}"),
                Arguments.of("{{lastMessage}}|{{lastMessageId}}|{{lastUserMessage}}|{{lastCharMessage}}|{{firstIncludedMessageId}}|{{lastSwipeId}}|{{currentSwipeId}}|{{allChatRange}}",
                        "ok|2|ok|general kenobi|1||NaN|0-2"),
                Arguments.of("a{{newline}}b{{newline::3}}c{{space::2}}d{{space}}e{{noop}}f",
                        "a\nb{{newline::3}}c{{space::2}}d{{space}}ef"),
                Arguments.of("{{newline::x}} {{space::-1}}",
                        "{{newline::x}} {{space::-1}}"),
                Arguments.of("line1\n{{trim}}\nline2",
                        "line1line2"),
                Arguments.of("A\n\n{{trim}}\n\nB {{TRIM}} C",
                        "AB  C"),
                Arguments.of("{{trim}}  x  {{/trim}}|",
                        "  x  {{/trim}}|"),
                Arguments.of("{{trim}}\n  x\n  y\n{{/trim}}",
                        "  x\n  y\n{{/trim}}"),
                Arguments.of("{{// comment}}x{{//}}y{{// a::b::c}}z{{comment hidden}}",
                        "xyz{{comment hidden}}"),
                Arguments.of("{{//}}multi\nline{{///}}after",
                        "multi\nlineafter"),
                Arguments.of("{{original}}-{{original}}",
                        "ORIG-"),
                Arguments.of("{{reverse::abc}} {{reverse::}}",
                        "cba: :"),
                Arguments.of("{{time}} {{date}} {{weekday}} {{isotime}} {{isodate}}",
                        "5:00 AM January 1, 2026 Thursday 05:00 2026-01-01"),
                Arguments.of("{{time_UTC+2}} {{time_UTC-10}} {{time::UTC+5}} {{time::bogus}} {{time_utc+1}}",
                        "12:00 PM 12:00 AM {{time::UTC+5}} {{time::bogus}} 11:00 AM"),
                Arguments.of("{{datetimeformat::YYYY-MM-DD HH:mm:ss}}|{{datetimeformat::LLLL}}|{{datetimeformat::dddd Do MMMM [at] h A}}|{{datetimeformat::ll lll l L LTS}}",
                        "{{datetimeformat::YYYY-MM-DD HH:mm:ss}}|{{datetimeformat::LLLL}}|{{datetimeformat::dddd Do MMMM [at] h A}}|{{datetimeformat::ll lll l L LTS}}"),
                Arguments.of("{{datetimeformat::w ww W WW gggg GGGG Q Qo DDD DDDD E e d dd ddd X x Z ZZ a k kk SSS}}",
                        "{{datetimeformat::w ww W WW gggg GGGG Q Qo DDD DDDD E e d dd ddd X x Z ZZ a k kk SSS}}"),
                Arguments.of("{{idle_duration}} {{idleDuration}}",
                        "an hour {{idleDuration}}"),
                Arguments.of("{{timeDiff::2023-01-01 12:00:00::2023-01-01 15:00:00}} {{timeDiff::2023-01-02::2023-01-01}} {{timeDiff::x::y}}",
                        "3 hours ago in a day Invalid date"),
                Arguments.of("{{if description}}yes{{/if}}|{{if scenario}}yes{{else}}no{{/if}}|{{if !scenario}}empty{{/if}}",
                        "{{if description}}yes{{/if}}|{{if scenario}}yes{{else}}no{{/if}}|{{if !scenario}}empty{{/if}}"),
                Arguments.of("{{if .num}}N{{/if}}{{if .zero}}Z{{else}}notZ{{/if}}{{if $g}}G{{/if}}{{if .missing}}M{{else}}noM{{/if}}",
                        "{{if .num}}N{{/if}}{{if .zero}}Z{{else}}notZ{{/if}}{{if $g}}G{{/if}}{{if .missing}}M{{else}}noM{{/if}}"),
                Arguments.of("{{if {{getvar::word}}}}  spaced  {{/if}}|{{#if .word}}  kept  {{/if}}|",
                        "{{if abc}}  spaced  {{/if}}|{{#if .word}}  kept  {{/if}}|"),
                Arguments.of("{{if true}}\n    indented\n      more\n    back\n{{/if}}",
                        "{{if true}}\n    indented\n      more\n    back\n{{/if}}"),
                Arguments.of("{{if 1}}a{{if 0}}b{{else}}c{{/if}}d{{else}}e{{/if}}",
                        "{{if 1}}a{{if 0}}b{{else}}c{{/if}}d{{else}}e{{/if}}"),
                Arguments.of("{{if user::inline}}",
                        "{{if user::inline}}"),
                Arguments.of("{{if false::inline}}x",
                        "{{if false::inline}}x"),
                Arguments.of("{{if}}x{{/if}}",
                        "{{if}}x{{/if}}"),
                Arguments.of("{{getvar::num}} {{getvar::word}} {{getvar::missing}} {{getvar::arr}} {{hasvar::num}} {{varexists::nope}} {{getglobalvar::g}} {{getglobalvar::gn}}",
                        "5 abc  [1,2] {{hasvar::num}} {{varexists::nope}} G! 3"),
                Arguments.of("{{setvar::a::1}}{{addvar::a::2}}{{getvar::a}} {{incvar::a}} {{decvar::word}} {{addvar::arr::3}}{{getvar::arr}} {{addvar::word::x}}{{getvar::word}}",
                        "4 4 abcx-1 [1,2,\"3\"] abcx-1"),
                Arguments.of("{{setglobalvar::k::v}}{{getglobalvar::k}}{{incglobalvar::gn}}{{deletevar::num}}{{getvar::num}}|{{hasvar::num}}",
                        "v4{{deletevar::num}}5|{{hasvar::num}}"),
                Arguments.of("{{.num}} {{.word}} {{$g}} {{.num++}} {{.num}} {{.num--}} {{.x = hello {{user}} }}{{.x}} {{.x += !}}{{.x}}",
                        "{{.num}} {{.word}} {{$g}} {{.num++}} {{.num}} {{.num--}} {{.x = hello Alice }}{{.x}} {{.x += !}}{{.x}}"),
                Arguments.of("{{.missing || def}} {{.empty ?? d}} {{.missing ?? d2}} {{.zero || z}} {{.flag || f}} {{.new ||= set}}{{.new}} {{.new2 ??= s2}}{{.new2}}",
                        "{{.missing || def}} {{.empty ?? d}} {{.missing ?? d2}} {{.zero || z}} {{.flag || f}} {{.new ||= set}}{{.new}} {{.new2 ??= s2}}{{.new2}}"),
                Arguments.of("{{.num == 5}} {{.num != 5}} {{.num > 3}} {{.num >= 5}} {{.num < 2}} {{.num <= 5}} {{.word > 1}} {{.num -= 2}}{{.num}}",
                        "{{.num == 5}} {{.num != 5}} {{.num > 3}} {{.num >= 5}} {{.num < 2}} {{.num <= 5}} {{.word > 1}} {{.num -= 2}}{{.num}}"),
                Arguments.of("{{unknown}} {{unknown::a::b}} {{Unknown arg {{user}}}} {{foo}}x{{/foo}} {{/bar}}",
                        "{{unknown}} {{unknown::a::b}} {{Unknown arg Alice}} {{foo}}x{{/foo}} {{/bar}}"),
                Arguments.of("{ {user} } {{{user}}} {{{{user}}}} }}{{ {{ }} {{}} {{ 123}} {{!user}} {{?user}} {{#user}} {{>user}}",
                        "{ {user} } {Alice} {{Alice}} }}{{ {{ }} {{}} {{ 123}} {{!user}} {{?user}} {{#user}} {{>user}}"),
                Arguments.of("{{user",
                        "{{user"),
                Arguments.of("{{user}",
                        "{{user}"),
                Arguments.of("{{user::",
                        "{{user::"),
                Arguments.of("{{char}} {{user::",
                        "Bramble {{user::"),
                Arguments.of("text {{ unclosed and {{char}} end",
                        "text {{ unclosed and Bramble end"),
                Arguments.of("{{user.name}} {{char's}}",
                        "{{user.name}} {{char's}}"),
                Arguments.of("\\{\\{user\\}\\} {{user}} \\{{char}}",
                        "\\{\\{user\\}\\} Alice \\Bramble"),
                Arguments.of("{{setvar::a::b|c}}{{getvar::a}}",
                        "b|c"),
                Arguments.of("{{user|upper}}",
                        "{{user|upper}}"),
                Arguments.of("{{user::x}} {{char::}}",
                        "{{user::x}} {{char::}}"),
                Arguments.of("{{.}} {{$}} {{. x}} {{.a b}} {{.++}}",
                        "{{.}} {{$}} {{. x}} {{.a b}} {{.++}}"),
                Arguments.of("{{ .num }} {{.num++ }}",
                        "{{ .num }} {{.num++ }}"),
                Arguments.of("{{else}}x",
                        "{{else}}x"),
                Arguments.of("{{if .num}}a{{else}}b{{else}}c{{/if}}",
                        "{{if .num}}a{{else}}b{{else}}c{{/if}}"),
                Arguments.of("{{getvar::{{user}}}}",
                        "}}"),
                Arguments.of("{{setvar::n::{{char}}}}{{getvar::n}}",
                        "}}{{char"),
                Arguments.of("{{instructUserPrefix}} {{instructOutput}} {{systemPrompt}} {{defaultSystemPrompt}} {{exampleSeparator}} {{chatStart}}",
                        "  Be Bramble. Be Bramble. {{exampleSeparator}} START"),
                Arguments.of("{{setvar::::x}}{{getvar::}}",
                        "{{setvar::::x}}{{getvar::}}"),
                Arguments.of("{{getvar}}",
                        "{{getvar}}"),
                Arguments.of("{{newline::}}",
                        "{{newline::}}"),
                Arguments.of("{{time::}}",
                        "{{time::}}"),
                Arguments.of("{{user:x}}",
                        "{{user:x}}"),
                Arguments.of("{{if description}}\n# Title\n{{description}}\n{{/if}}\n\nafter",
                        "{{if description}}\n# Title\nDesc of Bramble\n{{/if}}\n\nafter"),
                Arguments.of("nested {{if .num}}{{if .word}}both{{/if}}{{/if}}",
                        "nested {{if .num}}{{if .word}}both{{/if}}{{/if}}"),
                Arguments.of("{{IF description}}up{{/IF}} {{if description}}mixed{{/IF}}",
                        "{{IF description}}up{{/IF}} {{if description}}mixed{{/IF}}"),
                Arguments.of("multi\r\n{{trim}}\r\nline",
                        "multiline"),
                Arguments.of("€ ünïcödé 😀 {{user}} 😀",
                        "€ ünïcödé 😀 Alice 😀"),
                Arguments.of("{{setvar::list::[]}}{{addvar::list::a}}{{addvar::list::b}}{{getvar::list}}",
                        "[\"a\",\"b\"]"));
    }

    @ParameterizedTest
    @MethodSource("legacyAnswers")
    void withTheEngineSwitchedOffSubstitutesAsSillyTavernsLegacyMacros(String content, String expected) {
        ObjectNode settings = settings("openai", false);
        ((ObjectNode) settings.path("power_user")).put("experimental_macro_engine", false);
        Macros macros = new Macros(env(settings, null, metadata()));
        assertEquals(expected, macros.substitute(content, Macros.Options.original("ORIG")));
    }

    @Test
    void aLongMessageWithSingleBracesPassesThroughWithoutExhaustingTheStack() {
        String text = "a { b } ".repeat(20_000);
        String substituted = macros().substitute(text + "{{user}}");
        assertTrue(substituted.equals(text + "Alice"), "the text is kept and the macro at its end replaced: "
                + substituted.substring(substituted.length() - 20));
    }

    @Test
    void originalIsReplacedOncePerCallAndStaysWithoutOne() {
        Macros macros = macros();
        assertEquals("ORIG-", macros.substitute("{{original}}-{{original}}", Macros.Options.original("ORIG")));
        assertEquals("ORIG", macros.substitute("{{original}}", Macros.Options.original("ORIG")));
        assertEquals("{{original}}", macros.substitute("{{original}}"));
    }

    @Test
    void macrosOnlyTheEnvironmentAnswersAreReplaced() {
        assertEquals("typed|normal|LORE||<think>|AN|DAN",
                macros().substitute("{{input}}|{{lastGenerationType}}|{{outlet::lore}}|{{outlet::none}}"
                        + "|{{reasoningPrefix}}|{{authorsNote}}|{{defaultAuthorsNote}}"));
    }

    @Test
    void outOfScopeMacrosAreLeftAsWritten() {
        String text = "{{random::a::b}} {{roll::1d6}} {{banned::x}} {{hasExtension::x}} {{firstDisplayedMessageId}}";
        assertEquals(text, macros().substitute(text));
    }

    @Test
    void pickIsSeededByTheChatTheTextAndThePlace() {
        Macros macros = macros();
        assertEquals("b b c", macros.substitute("{{pick::a::b::c}} {{pick::a::b::c}} {{pick::a::b::c}}"));
        assertEquals("xd", macros.substitute("x{{pick a, b, c, d}}"));
        assertEquals("c", macros.substitute("{{pick a\\, b, c}}"));
        assertEquals("5", macros.substitute("{{if 1}}{{pick::1::2::3::4::5}}{{/if}}"));
        assertEquals("q", macros.substitute("{{pick::{{user}}::{{char}}::q}}"));
        ObjectNode metadata = metadata();
        metadata.put("chat_id_hash", 12345);
        Macros otherChat = new Macros(env(settings("openai", false), null, metadata));
        assertEquals("c c b", otherChat.substitute("{{pick::a::b::c}} {{pick::a::b::c}} {{pick::a::b::c}}"));
    }

    @Test
    void legacyPickIsSeededByTheChatTheTextAndTheOffset() {
        ObjectNode settings = settings("openai", false);
        ((ObjectNode) settings.path("power_user")).put("experimental_macro_engine", false);
        Macros macros = new Macros(env(settings, null, metadata()));
        assertEquals("b a c", macros.substitute("{{pick::a::b::c}} {{pick::a::b::c}} {{pick::a::b::c}}"));
        assertEquals("x{{pick a, b, c, d}}", macros.substitute("x{{pick a, b, c, d}}"));
        assertEquals("{{if 1}}4{{/if}}", macros.substitute("{{if 1}}{{pick::1::2::3::4::5}}{{/if}}"));
        assertEquals("q", macros.substitute("{{pick::{{user}}::{{char}}::q}}"));
    }

    @Test
    void nameOverridesReplaceUserCharAndTheSoloGroup() {
        assertEquals("N1/N2/N2/N1", macros().substitute("{{user}}/{{char}}/{{group}}/{{notChar}}",
                Macros.Options.names("N1", "N2")));
    }

    @Test
    void withoutCardTheCardMacrosAreEmpty() {
        assertEquals("||Bramble", macros().substitute("{{description}}|{{mesExamples}}|{{char}}",
                Macros.Options.withoutCard()));
    }

    @Test
    void groupOverrideStandsForEveryGroupMacro() {
        assertEquals("G1, G2|G1, G2|G1, G2", macros().substitute("{{group}}|{{groupNotMuted}}|{{notChar}}",
                new Macros.Options(null, null, null, "G1, G2", true, Map.of())));
    }

    @Test
    void dynamicMacrosMatchAnyCaseAndTakeNoArguments() {
        assertEquals("CAP CAP {{caption::x}}", macros().substitute("{{caption}} {{Caption}} {{caption::x}}",
                Macros.Options.dynamic(Map.of("Caption", "CAP"))));
    }

    @Test
    void groupMacrosListMembersInGroupOrder() {
        List<MacroEnv.GroupMember> group = List.of(new MacroEnv.GroupMember("Cob", false),
                new MacroEnv.GroupMember("Bramble", false), new MacroEnv.GroupMember("Dill", true));
        Macros macros = new Macros(env(settings("openai", false), group, metadata()));
        assertEquals("Cob, Bramble, Dill|Cob, Bramble|Cob|Cob, Bramble, Dill|Cob, Bramble, Dill",
                macros.substitute("{{group}}|{{groupNotMuted}}|{{notChar}}|{{charIfNotGroup}}|<GROUP>"));
    }

    @Test
    void variablesSetInOneCallAreSeenByTheNextButNotWrittenBack() {
        ObjectNode metadata = metadata();
        Macros macros = new Macros(env(settings("openai", false), null, metadata));
        assertEquals("6", macros.substitute("{{setvar::z::1}}{{.num++}}{{setglobalvar::g::new}}"));
        assertEquals("1 6 new", macros.substitute("{{getvar::z}} {{.num}} {{$g}}"));
        assertEquals("5", metadata.path("variables").path("num").asText());
        assertEquals("5 G!", macros().substitute("{{.num}} {{$g}}"));
    }

    @Test
    void instructModeFormatsExamplesAndPrintsSequences() {
        Macros macros = new Macros(env(settings("textgenerationwebui", true), null, metadata()));
        assertEquals("[Alice/Bramble]<START>\n{{user}}: hi\n{{char}}: hello\n[Alice/Bramble]<START>\n{{char}}: bye\n"
                        + "|<|user|>|<|assistant|>|",
                macros.substitute("{{mesExamples}}|{{instructUserPrefix}}|{{instructFirstAssistantPrefix}}"
                        + "|{{instructStop}}"));
    }

    @Test
    void textCompletionExamplesStartWithTheSubstitutedSeparator() {
        ObjectNode settings = settings("textgenerationwebui", false);
        ((ObjectNode) settings.path("power_user").path("context")).put("example_separator", "*** {{char}}");
        Macros macros = new Macros(env(settings, null, metadata()));
        assertEquals("*** Bramble\n{{user}}: hi\n{{char}}: hello\n*** Bramble\n{{char}}: bye\n",
                macros.substitute("{{mesExamples}}"));
    }

    @Test
    void summaryIsTheLatestMemoryBeforeTheLastMessageWhileTheMemoryExtensionIsOn() {
        ArrayNode chat = (ArrayNode) JsJson.parse("""
                [{"mes": "a", "extra": {"memory": "old"}}, {"mes": "b", "extra": {"memory": "new"}},
                 {"mes": "c", "extra": {"memory": "too late"}}]
                """);
        ObjectNode settings = settings("openai", false);
        MacroEnv on = new MacroEnv("Alice", "Bramble", settings, CARD, null, null, chat, metadata(), "chat", "",
                0, 0, "", "", NOW, null, null);
        assertEquals("new", new Macros(on).substitute("{{summary}}"));
        ObjectNode disabled = settings("openai", false);
        ((ObjectNode) disabled.path("extension_settings")).putArray("disabledExtensions").add("memory");
        MacroEnv off = new MacroEnv("Alice", "Bramble", disabled, CARD, null, null, chat, metadata(), "chat", "",
                0, 0, "", "", NOW, null, null);
        assertEquals("{{summary}}", new Macros(off).substitute("{{summary}}"));
    }

    @Test
    void instructMacrosAreEmptyOutsideInstructMode() {
        assertEquals("||", macros().substitute("{{instructUserPrefix}}|{{instructOutput}}|{{instructStop}}"));
    }
}

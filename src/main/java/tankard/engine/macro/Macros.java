package tankard.engine.macro;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.json.Js;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * ST's substituteParams (public/script.js) with the macro engine ST 1.18 uses by default
 * ({@code power_user.experimental_macro_engine}: public/scripts/macros/). One instance serves one prompt: the
 * variable macros change its copy of the chat's and the global variables, and later calls see the change, as in
 * ST. Macros that reach outside the prompt (random picks, dice, extension state) are left as written. With the
 * switch off ({@code experimental_macro_engine: false}), the legacy regex substitution runs instead.
 */
public final class Macros {
    private final MacroEnv env;
    private final MacroVariables variables;
    private final boolean legacyEngine;
    private final LegacyMacros legacy;

    public Macros(MacroEnv env) {
        this.env = env;
        this.variables = new MacroVariables(Js.get(env.chatMetadata(), "variables"),
                Js.get(env.settings(), "extension_settings.variables.global"));
        JsonNode engineSwitch = Js.get(env.settings(), "power_user.experimental_macro_engine");
        this.legacyEngine = engineSwitch != null && !Js.truthy(engineSwitch);
        this.legacy = new LegacyMacros(this, variables);
    }

    public MacroEnv env() {
        return env;
    }

    /** substituteParams(content) with ST's default options. */
    public String substitute(String content) {
        return substitute(content, Options.DEFAULT);
    }

    /** Whether substitute answers the text as it is, whatever the macros' values: it has no macro in it. */
    public static boolean plain(String content) {
        return MacroEngine.unchanged(content);
    }

    /** substituteParams(content, options). */
    public String substitute(String content, Options options) {
        if (content == null || content.isEmpty()) {
            return "";
        }
        if (legacyEngine) {
            return legacy.substitute(content, options);
        }
        if (MacroEngine.unchanged(content)) {
            return content;
        }
        String user = options.name1Override() != null ? options.name1Override() : nonNull(env.name1());
        String character = options.name2Override() != null ? options.name2Override() : nonNull(env.name2());
        Map<String, String> dynamicMacros = new HashMap<>();
        options.dynamicMacros().forEach((name, value) -> dynamicMacros.put(name.toLowerCase(Locale.ROOT), value));
        MacroScope scope = new MacroScope(this, variables, user, character,
                groupValue(options, character, true, false, null),
                groupValue(options, character, false, false, null),
                groupValue(options, character, false, true, user),
                options.replaceCharacterCard() ? env.card() : null, dynamicMacros, content, options.original());
        return MacroEngine.evaluate(content, scope, 0);
    }

    private static String nonNull(String value) {
        return value == null ? "" : value;
    }

    /** MacroEnvBuilder.js getGroupValue: the members' names, or the character (or user) outside a group. */
    private String groupValue(Options options, String currentChar, boolean includeMuted, boolean filterOutChar,
                              String includeUser) {
        if (options.groupOverride() != null) {
            return options.groupOverride();
        }
        List<MacroEnv.GroupMember> members = env.groupMembers();
        if (members == null) {
            return filterOutChar ? nonNull(includeUser) : currentChar;
        }
        return members.stream()
                .filter(member -> includeMuted || !member.muted())
                .filter(member -> !filterOutChar || !member.name().equals(currentChar))
                .map(MacroEnv.GroupMember::name)
                .collect(Collectors.joining(", "));
    }

    /**
     * substituteParams' options: name overrides, {@code {{original}}}, the group list override, whether card
     * macros ({{description}} and the like) are replaced, and extra macros by name.
     */
    public record Options(String name1Override, String name2Override, String original, String groupOverride,
                          boolean replaceCharacterCard, Map<String, String> dynamicMacros) {
        public Options {
            dynamicMacros = dynamicMacros == null ? Map.of() : dynamicMacros;
        }

        public static final Options DEFAULT = new Options(null, null, null, null, true, Map.of());

        public static Options original(String original) {
            return new Options(null, null, original, null, true, Map.of());
        }

        public static Options names(String name1, String name2) {
            return new Options(name1, name2, null, null, true, Map.of());
        }

        public static Options withoutCard() {
            return new Options(null, null, null, null, false, Map.of());
        }

        /** substituteParamsExtended(content, additionalMacro): extra macros, each a fixed text. */
        public static Options dynamic(Map<String, String> macros) {
            return new Options(null, null, null, null, true, macros);
        }
    }
}

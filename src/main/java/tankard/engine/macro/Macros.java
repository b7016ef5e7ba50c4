package tankard.engine.macro;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * ST's substituteParams (public/script.js) with the macro engine ST 1.18 uses by default
 * ({@code power_user.experimental_macro_engine}: public/scripts/macros/). Macros that reach outside the prompt
 * (variables written by scripts, slash commands, random picks kept in the chat) are out of scope: docs/engine.md.
 */
public final class Macros {
    private static final Pattern MACRO = Pattern.compile("\\{\\{(user|char)}}", Pattern.CASE_INSENSITIVE);

    private final MacroEnv env;

    public Macros(MacroEnv env) {
        this.env = env;
    }

    public MacroEnv env() {
        return env;
    }

    /** substituteParams(content) with ST's default options. */
    public String substitute(String content) {
        return substitute(content, Options.DEFAULT);
    }

    /** substituteParams(content, options). */
    public String substitute(String content, Options options) {
        if (content == null || content.isEmpty()) {
            return "";
        }
        String user = options.name1Override() != null ? options.name1Override() : env.name1();
        String character = options.name2Override() != null ? options.name2Override() : env.name2();
        Matcher matcher = MACRO.matcher(content);
        StringBuilder out = new StringBuilder();
        while (matcher.find()) {
            String value = matcher.group(1).equalsIgnoreCase("user") ? user : character;
            matcher.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        matcher.appendTail(out);
        String result = out.toString();
        for (Map.Entry<String, String> dynamic : options.dynamicMacros().entrySet()) {
            result = result.replace("{{" + dynamic.getKey() + "}}", dynamic.getValue());
        }
        return result;
    }

    /**
     * substituteParams' options: name overrides, {@code {{original}}}, the group list override, whether card
     * macros ({{description}} and the like) are replaced, and extra macros by name.
     */
    public record Options(String name1Override, String name2Override, String original, String groupOverride,
                          boolean replaceCharacterCard, Map<String, String> dynamicMacros) {
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
    }
}

package tankard.engine.text;

import com.github.jknack.handlebars.EscapingStrategy;
import com.github.jknack.handlebars.Handlebars;
import com.github.jknack.handlebars.HandlebarsException;
import com.github.jknack.handlebars.Template;
import tankard.core.Refusal;
import tankard.engine.macro.Macros;

import java.io.IOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * ST's renderStoryString (public/scripts/power-user.js): the context template's story string through Handlebars
 * without HTML escaping, the helpers ST registers (public/scripts/macros.js: {@code trim} kept for the macro pass,
 * any unknown name handed to substituteParams), then substituteParams and the newline rules.
 */
final class StoryString {
    /** The prompt being rendered on this thread: what the missing-helper hands a name to. */
    private static final ThreadLocal<Macros> RENDERING = new ThreadLocal<>();
    private static final Handlebars HANDLEBARS = new Handlebars().with(EscapingStrategy.NOOP).prettyPrint(true);
    /** Templates compiled, by their text: a user's story string is the same at every prompt. */
    private static final Map<String, Template> COMPILED = Collections.synchronizedMap(new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Template> eldest) {
            return size() > 32;
        }
    });

    static {
        HANDLEBARS.registerHelper("trim", (context, options) -> "{{trim}}");
        HANDLEBARS.registerHelperMissing((context, options) -> RENDERING.get().substitute("{{" + options.helperName + "}}"));
    }

    private StoryString() {
    }

    /**
     * @param params   the template's fields; a null value is JavaScript's undefined (it goes to helperMissing)
     * @param inChat   whether the story string is injected into the chat (context story_string_position 1)
     * @param instruct whether instruct mode is on, and its wrap and story string suffix
     */
    static String render(String template, Map<String, Object> params, Macros macros, String name1, String name2,
                         boolean inChat, boolean instruct, boolean wrap, boolean hasStorySuffix) {
        String output;
        RENDERING.set(macros);
        try {
            Template compiled = COMPILED.get(template);
            if (compiled == null) {
                compiled = HANDLEBARS.compileInline(template);
                COMPILED.put(template, compiled);
            }
            output = compiled.apply(params);
        } catch (IOException | HandlebarsException e) {
            throw new Refusal(Refusal.Kind.BAD_REQUEST, "The story string template is not valid: " + e.getMessage());
        } finally {
            RENDERING.remove();
        }
        output = macros.substitute(output, Macros.Options.names(name1, name2));
        output = output.replaceFirst("^\n+", "");
        if (!output.isEmpty() && !output.endsWith("\n") && !inChat && (!instruct || wrap && !hasStorySuffix)) {
            output += "\n";
        }
        return output;
    }
}

package tankard.engine.text;

import com.github.jknack.handlebars.EscapingStrategy;
import com.github.jknack.handlebars.Handlebars;
import com.github.jknack.handlebars.HandlebarsException;
import tankard.core.Refusal;
import tankard.engine.macro.Macros;

import java.io.IOException;
import java.util.Map;

/**
 * ST's renderStoryString (public/scripts/power-user.js): the context template's story string through Handlebars
 * without HTML escaping, the helpers ST registers (public/scripts/macros.js: {@code trim} kept for the macro pass,
 * any unknown name handed to substituteParams), then substituteParams and the newline rules.
 */
final class StoryString {
    private StoryString() {
    }

    /**
     * @param params   the template's fields; a null value is JavaScript's undefined (it goes to helperMissing)
     * @param inChat   whether the story string is injected into the chat (context story_string_position 1)
     * @param instruct whether instruct mode is on, and its wrap and story string suffix
     */
    static String render(String template, Map<String, Object> params, Macros macros, String name1, String name2,
                         boolean inChat, boolean instruct, boolean wrap, boolean hasStorySuffix) {
        Handlebars handlebars = new Handlebars().with(EscapingStrategy.NOOP).prettyPrint(true);
        handlebars.registerHelper("trim", (context, options) -> "{{trim}}");
        handlebars.registerHelperMissing((context, options) -> macros.substitute("{{" + options.helperName + "}}"));
        String output;
        try {
            output = handlebars.compileInline(template).apply(params);
        } catch (IOException | HandlebarsException e) {
            throw new Refusal(Refusal.Kind.BAD_REQUEST, "The story string template is not valid: " + e.getMessage());
        }
        output = macros.substitute(output, Macros.Options.names(name1, name2));
        output = output.replaceFirst("^\n+", "");
        if (!output.isEmpty() && !output.endsWith("\n") && !inChat && (!instruct || wrap && !hasStorySuffix)) {
            output += "\n";
        }
        return output;
    }
}

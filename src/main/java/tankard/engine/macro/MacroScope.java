package tankard.engine.macro;

import tankard.util.StringHash;

import java.util.Map;

/**
 * The environment of one substituteParams call (ST: MacroEnvBuilder.buildFromRawEnv): the names after overrides,
 * the card fields (null when the call leaves card macros out), the one-shot {@code {{original}}} and the call's
 * dynamic macros, over the prompt-wide environment and variables.
 */
final class MacroScope {
    final Macros macros;
    final MacroVariables variables;
    final String user;
    final String character;
    final String group;
    final String groupNotMuted;
    final String notChar;
    final MacroEnv.CardFields card;
    final Map<String, String> dynamicMacros;
    /** getStringHash of the text substituteParams was called with ({{pick}} seeds on it). */
    final long contentHash;
    private final String original;
    private boolean originalTaken;

    MacroScope(Macros macros, MacroVariables variables, String user, String character, String group,
               String groupNotMuted, String notChar, MacroEnv.CardFields card, Map<String, String> dynamicMacros,
               String content, String original) {
        this.macros = macros;
        this.variables = variables;
        this.user = user;
        this.character = character;
        this.group = group;
        this.groupNotMuted = groupNotMuted;
        this.notChar = notChar;
        this.card = card;
        this.dynamicMacros = dynamicMacros;
        this.contentHash = StringHash.of(content);
        this.original = original;
    }

    MacroEnv env() {
        return macros.env();
    }

    /** env.functions.original: the original text the first time, then "". Fails when the call gave none. */
    String takeOriginal() {
        if (original == null) {
            throw new MacroFailure("{{original}} has no value in this call");
        }
        if (originalTaken) {
            return "";
        }
        originalTaken = true;
        return original;
    }
}

package tankard.engine.macro;

import java.util.List;

/**
 * What a macro handler gets (ST: MacroRegistry.executeMacro's execution context): its arguments, whether it was
 * used as a scoped block, and a way to resolve macros in text it holds.
 */
final class MacroCall {
    final List<String> unnamedArgs;
    final List<String> list;
    final boolean scoped;
    final boolean preserveWhitespace;
    final MacroScope scope;
    private final int globalOffset;

    MacroCall(List<String> unnamedArgs, List<String> list, boolean scoped, boolean preserveWhitespace,
              MacroScope scope, int globalOffset) {
        this.unnamedArgs = unnamedArgs;
        this.list = list;
        this.scoped = scoped;
        this.preserveWhitespace = preserveWhitespace;
        this.scope = scope;
        this.globalOffset = globalOffset;
    }

    /** The i-th unnamed argument, or null (JavaScript's undefined) when not given. */
    String arg(int index) {
        return index < unnamedArgs.size() ? unnamedArgs.get(index) : null;
    }

    /** Where the macro starts in the top-level text (pick seeds on it). */
    int globalOffset() {
        return globalOffset;
    }

    /** resolve(text): evaluates macros in text with the same environment. */
    String resolve(String text) {
        return MacroEngine.evaluate(text, scope, globalOffset);
    }
}

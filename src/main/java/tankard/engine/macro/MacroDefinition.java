package tankard.engine.macro;

import java.util.List;

/**
 * A registered macro (ST: public/scripts/macros/engine/MacroRegistry.js, buildMacroDefFromOptions): how many
 * unnamed arguments it takes, their types, whether it takes a list of further arguments, and its handler.
 *
 * @param name               the primary name
 * @param minArgs            the required unnamed arguments
 * @param maxArgs            required and optional unnamed arguments
 * @param list               whether arguments past maxArgs are taken as a list
 * @param strictArgs         whether a wrong argument count or type makes the macro fail (else it runs anyway)
 * @param delayArgResolution whether the handler gets its arguments unresolved (it resolves what it needs)
 * @param argTypes           each unnamed argument's accepted types, "|"-separated: string, integer, number, boolean
 * @param handler            the macro's value
 */
record MacroDefinition(String name, int minArgs, int maxArgs, boolean list, boolean strictArgs,
                       boolean delayArgResolution, List<String> argTypes, Handler handler) {

    @FunctionalInterface
    interface Handler {
        String handle(MacroCall call);
    }
}

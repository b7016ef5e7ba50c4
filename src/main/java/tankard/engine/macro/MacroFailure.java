package tankard.engine.macro;

/**
 * A macro that cannot run (wrong arguments, a missing value): the engine leaves the macro's text as it was, as ST's
 * MacroEngine does when a handler throws.
 */
final class MacroFailure extends RuntimeException {
    MacroFailure(String message) {
        super(message, null, false, false);
    }
}

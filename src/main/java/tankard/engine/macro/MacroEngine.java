package tankard.engine.macro;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.TextNode;
import tankard.engine.macro.MacroLexer.Token;
import tankard.engine.macro.MacroParser.Node;
import tankard.json.Js;
import tankard.json.JsNumber;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The macro engine: pre-processing, parsing, evaluating the CST, post-processing (ST:
 * public/scripts/macros/engine/MacroEngine.js evaluate and resolveMacro, MacroCstWalker.js evaluateDocument and
 * the scoped macro pairing, MacroRegistry.js executeMacro).
 */
final class MacroEngine {
    /** What {{else}} stands for until the enclosing {{if}} splits on it (core-macros.js ELSE_MARKER). */
    static final String ELSE_MARKER = "\u0000\u001FELSE\u001F\u0000";

    private static final Pattern LEGACY_TIME = Pattern.compile("\\{\\{time_(UTC[+-]\\d+)}}", Pattern.CASE_INSENSITIVE);
    private static final Pattern ESCAPED_BRACE = Pattern.compile("\\\\([{}])");
    private static final Pattern LEGACY_TRIM = Pattern.compile("(?:\\r?\\n)*\\{\\{trim}}(?:\\r?\\n)*",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern LEADING_INDENT = Pattern.compile("^[ \\t]*");

    private MacroEngine() {
    }

    /** MacroEngine.evaluate: the text with its macros resolved; the input itself when evaluation breaks. */
    static String evaluate(String input, MacroScope scope, int contextOffset) {
        if (input == null || input.isEmpty()) {
            return "";
        }
        String text = preProcess(input);
        String evaluated;
        try {
            evaluated = evaluateText(text, MacroParser.parseDocument(text), contextOffset, scope);
        } catch (RuntimeException e) {
            return input;
        }
        return postProcess(evaluated);
    }

    /** The legacy markers and the macros they stand for, in the order they are rewritten. */
    private static final List<Map.Entry<Pattern, String>> LEGACY_MARKERS = List.of(
            Map.entry(Pattern.compile("<USER>", Pattern.CASE_INSENSITIVE), "{{user}}"),
            Map.entry(Pattern.compile("<BOT>", Pattern.CASE_INSENSITIVE), "{{char}}"),
            Map.entry(Pattern.compile("<CHAR>", Pattern.CASE_INSENSITIVE), "{{char}}"),
            Map.entry(Pattern.compile("<GROUP>", Pattern.CASE_INSENSITIVE), "{{group}}"),
            Map.entry(Pattern.compile("<CHARIFNOTGROUP>", Pattern.CASE_INSENSITIVE), "{{charIfNotGroup}}"));

    /**
     * Whether evaluate would answer the text unchanged: no macro, legacy marker, escaped brace or else-marker in
     * it. Most chat messages are plain, and a prompt substitutes every one of them.
     */
    static boolean unchanged(String content) {
        for (int i = 0; i < content.length(); i++) {
            char c = content.charAt(i);
            if (c == '\\' || c == '\u0000' || c == '{' && i + 1 < content.length() && content.charAt(i + 1) == '{'
                    || c == '<' && legacyMarkerAt(content, i)) {
                return false;
            }
        }
        return true;
    }

    private static boolean legacyMarkerAt(String content, int at) {
        for (Map.Entry<Pattern, String> marker : LEGACY_MARKERS) {
            String literal = marker.getKey().pattern();
            if (content.regionMatches(true, at, literal, 0, literal.length())) {
                return true;
            }
        }
        return false;
    }

    private static String preProcess(String text) {
        String result = LEGACY_TIME.matcher(text).replaceAll("{{time::$1}}");
        for (Map.Entry<Pattern, String> marker : LEGACY_MARKERS) {
            result = marker.getKey().matcher(result).replaceAll(marker.getValue());
        }
        return result;
    }

    private static String postProcess(String text) {
        String unescaped = ESCAPED_BRACE.matcher(text).replaceAll("$1");
        return LEGACY_TRIM.matcher(unescaped).replaceAll("").replace(ELSE_MARKER, "");
    }

    /** trimScopedContent: trims, and takes the first non-empty line's indentation off every line. */
    static String trimScopedContent(String content) {
        if (content == null || content.isEmpty()) {
            return "";
        }
        String[] lines = content.split("\n", -1);
        int baseIndent = 0;
        for (String line : lines) {
            if (!Js.trim(line).isEmpty()) {
                baseIndent = indentOf(line);
                break;
            }
        }
        if (baseIndent == 0) {
            return Js.trim(content);
        }
        StringBuilder dedented = new StringBuilder();
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (i > 0) {
                dedented.append('\n');
            }
            dedented.append(indentOf(line) >= baseIndent ? line.substring(baseIndent) : trimStart(line));
        }
        return Js.trim(dedented.toString());
    }

    private static int indentOf(String line) {
        Matcher matcher = LEADING_INDENT.matcher(line);
        return matcher.find() ? matcher.end() : 0;
    }

    private static String trimStart(String text) {
        int from = 0;
        while (from < text.length() && Js.isWhitespace(text.charAt(from))) {
            from++;
        }
        return text.substring(from);
    }

    /** JavaScript's slice(from, to) for the offsets the walker uses. */
    private static String slice(String text, int from, int to) {
        int start = Math.max(0, Math.min(from, text.length()));
        int end = Math.max(start, Math.min(to, text.length()));
        return text.substring(start, end);
    }

    // ---- The CST walker ----

    private record Context(String text, int offset, MacroScope scope) {
    }

    private record Scoped(int start, int end, int closingEnd) {
    }

    private record Range(int start, int end) {
    }

    /** An argument's (or the scoped content's) resolved value and where its raw text was. */
    private record Evaluated(String value, int start, int end) {
    }

    private static final class Item {
        final boolean macro;
        final int start;
        final int end;
        final Node node;
        Scoped scoped;
        boolean keepRaw;

        Item(boolean macro, int start, int end, Node node) {
            this.macro = macro;
            this.start = start;
            this.end = end;
            this.node = node;
        }
    }

    /** evaluateDocument / evaluateRawContent: the text with each top-level item evaluated in place. */
    private static String evaluateText(String text, Node cst, int offset, MacroScope scope) {
        List<Item> items = processScopedMacros(collectItems(cst));
        if (items.isEmpty()) {
            return text;
        }
        Context context = new Context(text, offset, scope);
        StringBuilder result = new StringBuilder();
        int cursor = 0;
        for (Item item : items) {
            if (item.start > cursor) {
                result.append(slice(text, cursor, item.start));
            }
            if (!item.macro || item.keepRaw) {
                result.append(slice(text, item.start, item.end + 1));
                cursor = item.end + 1;
            } else {
                result.append(evaluateMacroNode(item.node, context, item.scoped));
                cursor = item.scoped != null && item.scoped.closingEnd > item.end ? item.scoped.closingEnd + 1
                        : item.end + 1;
            }
        }
        if (cursor < text.length()) {
            result.append(text.substring(cursor));
        }
        return result.toString();
    }

    private static String evaluateRawContent(String raw, int offset, MacroScope scope) {
        if (raw.isEmpty()) {
            return "";
        }
        return evaluateText(raw, MacroParser.parseDocument(raw), offset, scope);
    }

    /** collectDocumentItems: plaintext tokens and macros; a macro without its closing braces turns into text. */
    private static List<Item> collectItems(Node cst) {
        List<Item> items = new ArrayList<>();
        for (Token token : cst.tokens("plaintext")) {
            items.add(new Item(false, token.start(), token.end(), null));
        }
        for (Node macro : cst.nodes("macro")) {
            if (macro.token("Macro.End") == null) {
                flattenIncompleteMacro(macro, items);
            } else {
                Range range = macroRange(macro);
                items.add(new Item(true, range.start(), range.end(), macro));
            }
        }
        items.sort(Comparator.<Item>comparingInt(item -> item.start).thenComparingInt(item -> item.end));
        return items;
    }

    private static void flattenIncompleteMacro(Node node, List<Item> items) {
        for (List<Object> children : node.children.values()) {
            for (Object child : children) {
                if (child instanceof Token token) {
                    items.add(new Item(false, token.start(), token.end(), null));
                } else {
                    Node nested = (Node) child;
                    if (nested.token("Macro.Start") != null && nested.token("Macro.End") != null) {
                        Range range = macroRange(nested);
                        items.add(new Item(true, range.start(), range.end(), nested));
                    } else {
                        flattenIncompleteMacro(nested, items);
                    }
                }
            }
        }
    }

    private static Range macroRange(Node macro) {
        Token start = macro.token("Macro.Start");
        Token end = macro.token("Macro.End");
        if (start != null && end != null) {
            return new Range(start.start(), end.end());
        }
        return macro.hasLocation() ? new Range(macro.start, macro.end) : new Range(0, 0);
    }

    private static Range argumentLocation(Node argument) {
        return argument.hasLocation() ? new Range(argument.start, argument.end) : null;
    }

    private static String macroName(Node macro) {
        Node body = macro.node("macroBody");
        Token identifier = body == null ? null : body.token("Macro.identifier");
        return identifier == null ? "" : identifier.image();
    }

    private static List<Node> argumentNodes(Node macro) {
        Node body = macro.node("macroBody");
        Node arguments = body == null ? null : body.node("arguments");
        return arguments == null ? List.of() : arguments.nodes("argument");
    }

    private static boolean isClosing(Node macro) {
        return macro.tokens("flags").stream().anyMatch(flag -> flag.image().equals("/"));
    }

    private static String evaluateMacroNode(Node macro, Context context, Scoped scoped) {
        Node variableExpr = macro.node("variableExpr");
        if (variableExpr != null) {
            return evaluateVariableExpr(variableExpr, context);
        }
        String text = context.text();
        String name = macroName(macro);
        boolean preserveWhitespace = macro.tokens("flags").stream().anyMatch(flag -> flag.image().equals("#"));
        Range range = macroRange(macro);
        Token startToken = macro.token("Macro.Start");
        Token endToken = macro.token("Macro.End");
        int innerStart = startToken != null ? startToken.end() + 1 : range.start();
        int innerEnd = endToken != null ? endToken.start() - 1 : range.end();

        MacroDefinition definition = BuiltinMacros.lookup(name);
        boolean delayArgResolution = definition != null && definition.delayArgResolution();

        List<String> args = new ArrayList<>();
        List<Evaluated> evaluated = new ArrayList<>();
        for (Node argument : argumentNodes(macro)) {
            Range location = argumentLocation(argument);
            String raw = location != null ? slice(text, location.start(), location.end() + 1) : "";
            String value = delayArgResolution || location == null ? raw
                    : evaluateRawContent(raw, context.offset() + location.start(), context.scope());
            args.add(value);
            if (location != null) {
                evaluated.add(new Evaluated(value, location.start(), location.end()));
            }
        }
        if (scoped != null) {
            if (scoped.start() > scoped.end()) {
                args.add("");
            } else {
                String raw = slice(text, scoped.start(), scoped.end() + 1);
                String value = raw;
                if (!delayArgResolution) {
                    value = evaluateRawContent(raw, context.offset() + scoped.start(), context.scope());
                    if (!preserveWhitespace) {
                        value = trimScopedContent(value);
                    }
                }
                args.add(value);
                evaluated.add(new Evaluated(value, scoped.start(), scoped.end()));
            }
        }
        evaluated.sort(Comparator.comparingInt(Evaluated::start));

        StringBuilder rawInner = new StringBuilder();
        if (innerStart <= innerEnd) {
            int cursor = innerStart;
            for (Evaluated entry : evaluated) {
                if (entry.start() > cursor) {
                    rawInner.append(slice(text, cursor, entry.start()));
                }
                rawInner.append(entry.value());
                cursor = entry.end() + 1;
            }
            if (cursor <= innerEnd) {
                rawInner.append(slice(text, cursor, innerEnd + 1));
            }
        }
        return resolveMacro(name, args, scoped != null, preserveWhitespace, rawInner.toString(),
                context.offset() + range.start(), context.scope());
    }

    /** resolveMacro and executeMacro: an unknown or failing macro stays as written, nested macros resolved. */
    private static String resolveMacro(String name, List<String> args, boolean scoped, boolean preserveWhitespace,
                                       String rawInner, int globalOffset, MacroScope scope) {
        String raw = "{{" + rawInner + "}}";
        if (name.isEmpty()) {
            return raw;
        }
        MacroDefinition definition;
        String dynamic = scope.dynamicMacros.get(name.toLowerCase(Locale.ROOT));
        if (dynamic != null) {
            definition = new MacroDefinition(name, 0, 0, false, true, false, List.of(), call -> dynamic);
        } else {
            definition = BuiltinMacros.lookup(name);
            if (definition == null) {
                return raw;
            }
        }
        try {
            return execute(definition, args, scoped, preserveWhitespace, globalOffset, scope);
        } catch (RuntimeException e) {
            return raw;
        }
    }

    private static String execute(MacroDefinition definition, List<String> args, boolean scoped,
                                  boolean preserveWhitespace, int globalOffset, MacroScope scope) {
        int count = args.size();
        boolean countValid = definition.list() ? count >= definition.minArgs()
                : count >= definition.minArgs() && count <= definition.maxArgs();
        if (!countValid && definition.strictArgs()) {
            throw new MacroFailure("wrong argument count for " + definition.name());
        }
        List<String> unnamed = args.subList(0, Math.min(count, definition.maxArgs()));
        List<String> list = !definition.list() ? null
                : count > definition.maxArgs() ? args.subList(definition.maxArgs(), count) : List.of();
        List<String> types = definition.argTypes();
        for (int i = 0; i < Math.min(types.size(), unnamed.size()); i++) {
            if (!isOfType(unnamed.get(i), types.get(i)) && definition.strictArgs()) {
                throw new MacroFailure("wrong argument type for " + definition.name());
            }
        }
        return definition.handler().handle(new MacroCall(unnamed, list, scoped, preserveWhitespace, scope,
                globalOffset));
    }

    private static boolean isOfType(String value, String types) {
        String trimmed = Js.trim(value);
        for (String type : types.split("\\|")) {
            boolean matches = switch (type) {
                case "string" -> true;
                case "integer" -> trimmed.matches("-?\\d+");
                case "number" -> Double.isFinite(JsNumber.parse(trimmed));
                case "boolean" -> BuiltinMacros.isTrueBoolean(trimmed) || BuiltinMacros.isFalseBoolean(trimmed);
                default -> false;
            };
            if (matches) {
                return true;
            }
        }
        return false;
    }

    // ---- Scoped macros ----

    private record MacroInfo(Item item, String name, boolean closing) {
    }

    /** processScopedMacros: pairs {{name}} … {{/name}}, the content becoming the opener's last argument. */
    private static List<Item> processScopedMacros(List<Item> items) {
        List<MacroInfo> infos = new ArrayList<>();
        List<Integer> infoIndex = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            Item item = items.get(i);
            if (!item.macro || item.node.node("variableExpr") != null) {
                continue;
            }
            String name = macroName(item.node);
            if (name.isEmpty()) {
                continue;
            }
            infos.add(new MacroInfo(item, name, isClosing(item.node)));
            infoIndex.add(i);
        }
        boolean[] matched = new boolean[infos.size()];
        Set<Integer> insideScope = new HashSet<>();
        List<int[]> pairs = new ArrayList<>();
        for (int i = 0; i < infos.size(); i++) {
            MacroInfo open = infos.get(i);
            if (open.closing() || matched[i] || insideScope.contains(infoIndex.get(i))) {
                continue;
            }
            int closing = findMatchingClosingMacro(infos, matched, i);
            if (closing == -1) {
                continue;
            }
            matched[i] = true;
            matched[closing] = true;
            if (!canAcceptScopedContent(open.item().node, open.name())) {
                open.item().keepRaw = true;
                infos.get(closing).item().keepRaw = true;
                continue;
            }
            int openingIndex = infoIndex.get(i);
            int closingIndex = infoIndex.get(closing);
            pairs.add(new int[]{openingIndex, closingIndex});
            for (int j = openingIndex + 1; j < closingIndex; j++) {
                insideScope.add(j);
            }
        }
        for (int i = 0; i < infos.size(); i++) {
            if (infos.get(i).closing() && !matched[i]) {
                infos.get(i).item().keepRaw = true;
            }
        }
        if (pairs.isEmpty()) {
            return items;
        }
        Set<Integer> remove = new HashSet<>();
        for (int[] pair : pairs) {
            Item opening = items.get(pair[0]);
            Item closing = items.get(pair[1]);
            opening.scoped = new Scoped(opening.end + 1, closing.start - 1, closing.end);
            for (int j = pair[0] + 1; j <= pair[1]; j++) {
                remove.add(j);
            }
        }
        List<Item> kept = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            if (!remove.contains(i)) {
                kept.add(items.get(i));
            }
        }
        return kept;
    }

    private static int findMatchingClosingMacro(List<MacroInfo> infos, boolean[] matched, int openingIndex) {
        String target = infos.get(openingIndex).name().toLowerCase(Locale.ROOT);
        int depth = 1;
        for (int i = openingIndex + 1; i < infos.size(); i++) {
            MacroInfo info = infos.get(i);
            if (!info.name().toLowerCase(Locale.ROOT).equals(target) || matched[i]) {
                continue;
            }
            if (info.closing()) {
                depth--;
                if (depth == 0) {
                    return i;
                }
            } else if (canAcceptScopedContent(info.item().node, info.name())) {
                depth++;
            }
        }
        return -1;
    }

    /** Whether one more argument (the scoped content) fits the macro; unknown macros take it. */
    private static boolean canAcceptScopedContent(Node macro, String name) {
        MacroDefinition definition = BuiltinMacros.lookup(name);
        if (definition == null) {
            return true;
        }
        if (definition.list()) {
            return false;
        }
        int count = argumentNodes(macro).size() + 1;
        return count >= definition.minArgs() && count <= definition.maxArgs();
    }

    /**
     * core-macros.js splitOnTopLevelElse: the content before and after the first {{else}} outside nested scoped
     * {{if}} blocks; the else branch is null when there is none.
     */
    static String[] splitOnTopLevelElse(String content) {
        Node cst = MacroParser.parseDocument(content);
        int depth = 0;
        for (Node macro : cst.nodes("macro")) {
            Token start = macro.token("Macro.Start");
            Token end = macro.token("Macro.End");
            String name = macroName(macro);
            if (macro.node("variableExpr") != null || start == null || end == null || name.isEmpty()) {
                continue;
            }
            boolean closing = isClosing(macro);
            if (name.equals("if") && !closing && argumentNodes(macro).size() == 1) {
                depth++;
            } else if (name.equals("if") && closing) {
                depth--;
            } else if (name.equals("else") && depth == 0) {
                return new String[]{content.substring(0, start.start()), content.substring(end.end() + 1)};
            }
        }
        return new String[]{content, null};
    }

    // ---- Variable shorthand ----

    private static String evaluateVariableExpr(Node expression, Context context) {
        Token scopeToken = expression.token("Var.scope");
        boolean global = scopeToken == null || !scopeToken.image().equals(".");
        Token identifier = expression.token("Var.identifier");
        String name = identifier == null ? "" : identifier.image();
        Node operator = expression.node("variableOperator");
        Token operatorToken = operator == null ? null : operator.token("Var.operator");
        String operation = operatorToken == null ? "" : operatorToken.image();
        String[] cache = new String[1];
        Supplier<String> value = () -> {
            if (cache[0] == null) {
                cache[0] = evaluateVariableValue(operator, context);
            }
            return cache[0];
        };
        MacroVariables.Scope variables = global ? context.scope().variables.global : context.scope().variables.local;
        return switch (operation) {
            case "" -> MacroVariables.normalize(variables.get(name));
            case "=" -> {
                variables.set(name, TextNode.valueOf(value.get()));
                yield "";
            }
            case "++" -> MacroVariables.normalize(variables.add(name, DoubleNode.valueOf(1)));
            case "--" -> MacroVariables.normalize(variables.add(name, DoubleNode.valueOf(-1)));
            case "+=" -> {
                variables.add(name, TextNode.valueOf(value.get()));
                yield "";
            }
            case "-=" -> {
                double number = JsNumber.parse(value.get());
                if (!Double.isNaN(number)) {
                    variables.add(name, DoubleNode.valueOf(-number));
                }
                yield "";
            }
            case "||" -> {
                JsonNode current = variables.get(name);
                yield isFalsy(current) ? value.get() : MacroVariables.normalize(current);
            }
            case "??" -> variables.has(name) ? MacroVariables.normalize(variables.get(name)) : value.get();
            case "||=" -> {
                JsonNode current = variables.get(name);
                if (isFalsy(current)) {
                    variables.set(name, TextNode.valueOf(value.get()));
                    yield value.get();
                }
                yield MacroVariables.normalize(current);
            }
            case "??=" -> {
                if (!variables.has(name)) {
                    variables.set(name, TextNode.valueOf(value.get()));
                    yield value.get();
                }
                yield MacroVariables.normalize(variables.get(name));
            }
            case "==" -> String.valueOf(MacroVariables.normalize(variables.get(name)).equals(value.get()));
            case "!=" -> String.valueOf(!MacroVariables.normalize(variables.get(name)).equals(value.get()));
            default -> compare(operation, JsNumber.of(variables.get(name)), JsNumber.parse(value.get()));
        };
    }

    private static boolean isFalsy(JsonNode value) {
        return !Js.truthy(value) || BuiltinMacros.isFalseBoolean(MacroVariables.normalize(value));
    }

    private static String compare(String operation, double current, double other) {
        if (Double.isNaN(current) || Double.isNaN(other)) {
            return "false";
        }
        boolean result = switch (operation) {
            case ">" -> current > other;
            case ">=" -> current >= other;
            case "<" -> current < other;
            default -> current <= other;
        };
        return String.valueOf(result);
    }

    /** evaluateVariableValue: the value after the operator, nested macros resolved, trimmed. */
    private static String evaluateVariableValue(Node operator, Context context) {
        Node value = operator.node("Var.value");
        if (value == null || !value.hasLocation()) {
            return "";
        }
        String text = context.text();
        List<Node> nested = value.nodes("macro");
        if (nested.isEmpty()) {
            return Js.trim(slice(text, value.start, value.end + 1));
        }
        StringBuilder result = new StringBuilder();
        int cursor = value.start;
        for (Node macro : nested) {
            Range range = macroRange(macro);
            if (range.start() > cursor) {
                result.append(slice(text, cursor, range.start()));
            }
            result.append(evaluateMacroNode(macro, context, null));
            cursor = range.end() + 1;
        }
        if (cursor <= value.end) {
            result.append(slice(text, cursor, value.end + 1));
        }
        return Js.trim(result.toString());
    }
}

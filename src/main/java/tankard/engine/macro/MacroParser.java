package tankard.engine.macro;

import tankard.engine.macro.MacroLexer.Token;
import tankard.engine.macro.MacroLexer.Type;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The macro grammar (ST: public/scripts/macros/engine/MacroParser.js), a chevrotain CST parser with error recovery.
 * The recovery is chevrotain's: a missing {@code }}} is forgiven when deleting one token fixes it; otherwise the
 * failing rule gives up its partial node and parsing resumes at the first token that may follow some rule on the
 * stack. The walker turns a macro node without its closing token back into text.
 */
final class MacroParser {
    private static final Token EOF = new Token(Type.EOF, "", -1, -1);

    private static final Set<Type> MACRO_AFTER_START = EnumSet.of(Type.FLAG, Type.FILTER_FLAG, Type.LOCAL_PREFIX,
            Type.GLOBAL_PREFIX, Type.DOUBLE_SLASH, Type.MACRO_IDENTIFIER);
    private static final Set<Type> DOCUMENT_ITEM = EnumSet.of(Type.PLAINTEXT, Type.PLAINTEXT_OPEN_BRACE, Type.START);
    private static final Set<Type> ARGUMENT_TOKENS = EnumSet.of(Type.IDENTIFIER, Type.UNKNOWN, Type.COLON, Type.EQUALS,
            Type.QUOTE);
    private static final Set<Type> ARGUMENTS_FIRST = EnumSet.of(Type.DOUBLE_COLON, Type.COLON, Type.START,
            Type.IDENTIFIER, Type.UNKNOWN, Type.EQUALS, Type.QUOTE);
    private static final Set<Type> BINARY_OPERATORS = EnumSet.of(Type.NULLISH_EQUALS, Type.NULLISH, Type.OR_EQUALS,
            Type.OR, Type.MINUS_EQUALS, Type.DOUBLE_EQUALS, Type.NOT_EQUALS, Type.GREATER_EQUALS, Type.GREATER,
            Type.LESS_EQUALS, Type.LESS, Type.PLUS_EQUALS, Type.VAR_EQUALS);
    private static final Set<Type> OPERATORS = EnumSet.of(Type.INCREMENT, Type.DECREMENT);

    static {
        OPERATORS.addAll(BINARY_OPERATORS);
    }

    // The resync follow sets: what may come after each rule where it is called, within the calling rule.
    private static final Set<Type> FOLLOW_DOCUMENT = EnumSet.of(Type.EOF);
    private static final Set<Type> FOLLOW_MACRO_IN_DOCUMENT = DOCUMENT_ITEM;
    private static final Set<Type> FOLLOW_MACRO_IN_ARGUMENT = EnumSet.of(Type.START, Type.IDENTIFIER, Type.UNKNOWN,
            Type.COLON, Type.EQUALS, Type.QUOTE);
    private static final Set<Type> FOLLOW_MACRO_IN_COLON_ARGUMENT = EnumSet.of(Type.START, Type.IDENTIFIER,
            Type.UNKNOWN, Type.COLON, Type.EQUALS, Type.QUOTE, Type.DOUBLE_COLON);
    private static final Set<Type> FOLLOW_MACRO_IN_VALUE = EnumSet.of(Type.START, Type.IDENTIFIER, Type.UNKNOWN);
    private static final Set<Type> FOLLOW_BODY = EnumSet.of(Type.END);
    private static final Set<Type> FOLLOW_ARGUMENT = EnumSet.of(Type.DOUBLE_COLON);
    private static final Set<Type> FOLLOW_NOTHING = EnumSet.noneOf(Type.class);

    /** A CST node: its children by label in the order they came, and the span of its tokens. */
    static final class Node {
        final String rule;
        final Map<String, List<Object>> children = new LinkedHashMap<>();
        int start = Integer.MAX_VALUE;
        int end = Integer.MIN_VALUE;

        Node(String rule) {
            this.rule = rule;
        }

        void add(String label, Object child) {
            children.computeIfAbsent(label, key -> new ArrayList<>()).add(child);
            int childStart = child instanceof Token token ? token.start() : ((Node) child).start;
            int childEnd = child instanceof Token token ? token.end() : ((Node) child).end;
            if (childStart != Integer.MAX_VALUE) {
                start = Math.min(start, childStart);
                end = Math.max(end, childEnd);
            }
        }

        boolean hasLocation() {
            return start != Integer.MAX_VALUE;
        }

        Token token(String label) {
            List<Object> list = children.get(label);
            return list == null || list.isEmpty() ? null : (Token) list.get(0);
        }

        List<Token> tokens(String label) {
            List<Token> tokens = new ArrayList<>();
            for (Object child : children.getOrDefault(label, List.of())) {
                tokens.add((Token) child);
            }
            return tokens;
        }

        Node node(String label) {
            List<Object> list = children.get(label);
            return list == null || list.isEmpty() ? null : (Node) list.get(0);
        }

        List<Node> nodes(String label) {
            List<Node> nodes = new ArrayList<>();
            for (Object child : children.getOrDefault(label, List.of())) {
                nodes.add((Node) child);
            }
            return nodes;
        }
    }

    /** A recognition error; carries the failed rule's partial node up to its caller. */
    private static final class RecognitionError extends RuntimeException {
        Node partial;

        RecognitionError() {
            super(null, null, false, false);
        }
    }

    private final List<Token> tokens;
    private final Deque<Set<Type>> follows = new ArrayDeque<>();
    private int position;

    private MacroParser(List<Token> tokens) {
        this.tokens = tokens;
    }

    /** parseDocument: the document's CST. */
    static Node parseDocument(String text) {
        MacroParser parser = new MacroParser(MacroLexer.tokenize(text));
        return parser.invoke("document", FOLLOW_DOCUMENT, parser::document);
    }

    private Token la(int k) {
        int index = position + k - 1;
        return index < tokens.size() ? tokens.get(index) : EOF;
    }

    private Type next() {
        return la(1).type();
    }

    /** Runs a rule; on a recognition error, resyncs here when the resync token may follow this rule. */
    private Node invoke(String rule, Set<Type> follow, Consumer<Node> body) {
        Node node = new Node(rule);
        follows.push(follow);
        try {
            body.accept(node);
            return node;
        } catch (RecognitionError error) {
            Type resync = resyncType();
            if (follow.contains(resync)) {
                while (next() != resync) {
                    position++;
                }
                return node;
            }
            error.partial = node;
            throw error;
        } finally {
            follows.pop();
        }
    }

    private void subrule(Node parent, String label, String rule, Set<Type> follow, Consumer<Node> body) {
        Node child;
        try {
            child = invoke(rule, follow, body);
        } catch (RecognitionError error) {
            if (error.partial != null) {
                parent.add(label, error.partial);
                error.partial = null;
            }
            throw error;
        }
        parent.add(label, child);
    }

    /** The first coming token that may follow any rule on the stack (EOF at the latest). */
    private Type resyncType() {
        Set<Type> all = EnumSet.noneOf(Type.class);
        follows.forEach(all::addAll);
        for (int k = 1; ; k++) {
            Type type = la(k).type();
            if (all.contains(type)) {
                return type;
            }
        }
    }

    /** CONSUME, with chevrotain's single token deletion. */
    private void consume(Node node, String label, Type expected) {
        if (next() == expected) {
            node.add(label, tokens.get(position++));
            return;
        }
        if (la(2).type() == expected) {
            position++;
            node.add(label, tokens.get(position++));
            return;
        }
        throw new RecognitionError();
    }

    private void document(Node node) {
        while (true) {
            while (DOCUMENT_ITEM.contains(next())) {
                if (next() == Type.START && MACRO_AFTER_START.contains(la(2).type())) {
                    subrule(node, "macro", "macro", FOLLOW_MACRO_IN_DOCUMENT, this::macro);
                } else {
                    node.add("plaintext", tokens.get(position++));
                }
            }
            // In-repetition recovery: skip tokens that cannot start an item.
            if (next() == Type.EOF || la(2).type() == Type.EOF) {
                return;
            }
            while (next() != Type.EOF && !DOCUMENT_ITEM.contains(next())) {
                position++;
            }
        }
    }

    private void macro(Node node) {
        consume(node, "Macro.Start", Type.START);
        while (next() == Type.FLAG || next() == Type.FILTER_FLAG) {
            node.add("flags", tokens.get(position++));
        }
        if (next() == Type.LOCAL_PREFIX || next() == Type.GLOBAL_PREFIX) {
            subrule(node, "variableExpr", "variableExpr", FOLLOW_BODY, this::variableExpr);
        } else if (next() == Type.DOUBLE_SLASH || next() == Type.MACRO_IDENTIFIER) {
            subrule(node, "macroBody", "macroBody", FOLLOW_BODY, this::macroBody);
        } else {
            throw new RecognitionError();
        }
        consume(node, "Macro.End", Type.END);
    }

    private void macroBody(Node node) {
        node.add("Macro.identifier", tokens.get(position++));
        if (ARGUMENTS_FIRST.contains(next())) {
            subrule(node, "arguments", "arguments", FOLLOW_NOTHING, this::arguments);
        }
    }

    private void arguments(Node node) {
        if (next() == Type.DOUBLE_COLON) {
            node.add("separator", tokens.get(position++));
            subrule(node, "argument", "argument", FOLLOW_ARGUMENT, this::argument);
            while (next() == Type.DOUBLE_COLON) {
                node.add("Args.DoubleColon", tokens.get(position++));
                subrule(node, "argument", "argument", FOLLOW_ARGUMENT, this::argument);
            }
        } else {
            if (next() == Type.COLON) {
                node.add("separator", tokens.get(position++));
            }
            subrule(node, "argument", "argumentAllowingColons", FOLLOW_NOTHING, this::argumentAllowingColons);
        }
    }

    private void argument(Node node) {
        while (next() == Type.START || ARGUMENT_TOKENS.contains(next())) {
            argumentToken(node, FOLLOW_MACRO_IN_ARGUMENT);
        }
    }

    private void argumentAllowingColons(Node node) {
        if (next() != Type.START && next() != Type.DOUBLE_COLON && !ARGUMENT_TOKENS.contains(next())) {
            throw new RecognitionError();
        }
        while (next() == Type.START || next() == Type.DOUBLE_COLON || ARGUMENT_TOKENS.contains(next())) {
            argumentToken(node, FOLLOW_MACRO_IN_COLON_ARGUMENT);
        }
    }

    private void argumentToken(Node node, Set<Type> macroFollow) {
        if (next() == Type.START) {
            subrule(node, "macro", "macro", macroFollow, this::macro);
        } else {
            node.add(next().name(), tokens.get(position++));
        }
    }

    private void variableExpr(Node node) {
        node.add("Var.scope", tokens.get(position++));
        consume(node, "Var.identifier", Type.VAR_IDENTIFIER);
        if (OPERATORS.contains(next())) {
            subrule(node, "variableOperator", "variableOperator", FOLLOW_NOTHING, this::variableOperator);
        }
    }

    private void variableOperator(Node node) {
        boolean binary = BINARY_OPERATORS.contains(next());
        node.add("Var.operator", tokens.get(position++));
        if (binary) {
            subrule(node, "Var.value", "variableValue", FOLLOW_NOTHING, this::variableValue);
        }
    }

    private void variableValue(Node node) {
        while (next() == Type.START || next() == Type.IDENTIFIER || next() == Type.UNKNOWN) {
            if (next() == Type.START) {
                subrule(node, "macro", "macro", FOLLOW_MACRO_IN_VALUE, this::macro);
            } else {
                node.add(next().name(), tokens.get(position++));
            }
        }
    }
}

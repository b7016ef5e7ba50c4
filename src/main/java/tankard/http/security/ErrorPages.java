package tankard.http.security;

import io.vertx.core.Future;
import io.vertx.ext.web.RoutingContext;

import java.nio.file.Path;

/**
 * The editable HTML pages of {@code DATA_ROOT/_errors/} that the security gates answer with; read per
 * request (without blocking) so edits apply at once, with a short built-in page when the file is missing.
 */
final class ErrorPages {
    private final Path dir;

    ErrorPages(Path dataRoot) {
        this.dir = dataRoot.resolve("_errors");
    }

    Future<String> read(RoutingContext ctx, String name, String fallback) {
        return ctx.vertx().fileSystem().readFile(dir.resolve(name).toString())
                .map(buffer -> buffer.toString(java.nio.charset.StandardCharsets.UTF_8))
                .otherwise(fallback);
    }

    static void send(RoutingContext ctx, int status, String html) {
        if (!ctx.response().ended()) {
            ctx.response().setStatusCode(status).putHeader("Content-Type", "text/html; charset=utf-8").end(html);
        }
    }

    /** Handlebars' escaping of {@code {{value}}}. */
    static String escapeHtml(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#x27;");
                case '`' -> out.append("&#x60;");
                case '=' -> out.append("&#x3D;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}

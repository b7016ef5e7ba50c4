package tankard.http;

import tankard.core.Refusal;
import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.ext.web.FileUpload;
import io.vertx.ext.web.RoutingContext;
import tankard.config.TankardConfig;
import tankard.http.security.SecurityChain;
import tankard.http.security.Session;
import tankard.http.security.SessionCookies;
import tankard.json.JsJson;
import tankard.json.JsonSyntaxException;
import tankard.user.User;

import java.util.List;

/**
 * What a route needs from an HTTP request, readable from a worker thread. The JSON body is parsed on first
 * use, off the event loop; like Express, a body that is not {@code application/json} reads as {@code {}}.
 */
public final class Request {
    public static final String UPLOAD_FIELD = "avatar";
    /** ST's body-parser limit for JSON and form bodies (500 MB, fixed in ST's server-main.js). */
    public static final long BODY_LIMIT = 500L * 1024 * 1024;

    private final RoutingContext ctx;
    private final TankardConfig config;
    private JsonNode body;

    Request(RoutingContext ctx, TankardConfig config) {
        this.ctx = ctx;
        this.config = config;
    }

    public RoutingContext ctx() {
        return ctx;
    }

    public TankardConfig config() {
        return config;
    }

    /** The signed-in (or, with accounts off, the default) user. Routes behind the gate always have one. */
    public User user() {
        return SecurityChain.user(ctx);
    }

    public Session session() {
        return SessionCookies.of(ctx);
    }

    public JsonNode body() {
        if (body == null) {
            body = parseBody();
        }
        return body;
    }

    /** The raw bytes of a JSON body, or null when {@link #body()} would read as {@code {}}. */
    private byte[] jsonBytes() {
        if (!isJson(ctx.request().getHeader("Content-Type")) || ctx.body().length() == 0) {
            return null;
        }
        return ctx.body().buffer().getBytes();
    }

    /** Whether the media type is {@code application/json}, the only one Express parses as JSON. */
    static boolean isJson(String contentType) {
        return contentType != null && contentType.toLowerCase().split(";")[0].trim().equals("application/json");
    }

    private JsonNode parseBody() {
        byte[] bytes = jsonBytes();
        if (bytes == null) {
            return JsJson.object();
        }
        JsonNode node;
        try {
            node = JsJson.parse(bytes);
        } catch (JsonSyntaxException e) {
            throw Refusal.badRequest("Malformed JSON body: " + e.getMessage());
        }
        if (!node.isObject() && !node.isArray()) {
            throw Refusal.badRequest("The JSON body must be an object or an array");
        }
        return node;
    }

    /** A text member of the JSON body, or null when absent; a non-text value is a 400. */
    public String text(String field) {
        JsonNode value = body().get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isValueNode()) {
            throw Refusal.badRequest("Field '" + field + "' must be text");
        }
        return value.asText();
    }

    /** A required text member of the JSON body. */
    public String requireText(String field) {
        String value = text(field);
        if (value == null || value.isEmpty()) {
            throw Refusal.badRequest("Missing required field '" + field + "'");
        }
        return value;
    }

    public String query(String name) {
        return ctx.request().getParam(name);
    }

    /** The uploaded file of a multipart request (ST accepts only the field {@code avatar}), or null. */
    public FileUpload upload() {
        List<FileUpload> uploads = ctx.fileUploads();
        return uploads.stream().filter(u -> u.fileName() != null && !u.fileName().isEmpty()).findFirst().orElse(null);
    }

    /** A plain form field of a multipart request. */
    public String formField(String name) {
        return ctx.request().getFormAttribute(name);
    }

    public List<String> formFields(String name) {
        return ctx.request().formAttributes().getAll(name);
    }
}

package tankard.outbound;

import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;

import java.util.UUID;

/**
 * A {@code multipart/form-data} body for a call out, built in memory as the form-data package lays it out: text
 * fields and files, each part with its name (and a file's name and type), CRLF between.
 */
public final class MultipartForm {
    private final String boundary = "----TankardFormBoundary" + UUID.randomUUID().toString().replace("-", "");
    private final Buffer body = Buffer.buffer();

    public MultipartForm field(String name, String value) {
        head("form-data; name=\"" + quoted(name) + "\"", null);
        body.appendString(value, "UTF-8").appendString("\r\n");
        return this;
    }

    public MultipartForm file(String name, String fileName, String contentType, byte[] content) {
        head("form-data; name=\"" + quoted(name) + "\"; filename=\"" + quoted(fileName) + "\"", contentType);
        body.appendBytes(content).appendString("\r\n");
        return this;
    }

    /** The POST of this form to the URL, with the given headers and the form's content type. */
    public UpstreamRequest post(String url, MultiMap headers) {
        Buffer whole = body.copy().appendString("--" + boundary + "--\r\n");
        headers.set("Content-Type", "multipart/form-data; boundary=" + boundary);
        return new UpstreamRequest(HttpMethod.POST, url, headers, whole);
    }

    private void head(String disposition, String contentType) {
        body.appendString("--" + boundary + "\r\nContent-Disposition: " + disposition + "\r\n", "UTF-8");
        if (contentType != null) {
            body.appendString("Content-Type: " + contentType.replaceAll("[\r\n]", "") + "\r\n");
        }
        body.appendString("\r\n");
    }

    /** A name inside a quoted header parameter: no quote or line break may end it early. */
    private static String quoted(String value) {
        return value.replace("\"", "%22").replace("\r", "%0D").replace("\n", "%0A");
    }
}

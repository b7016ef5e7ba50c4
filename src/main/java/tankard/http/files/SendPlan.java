package tankard.http.files;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import tankard.util.MimeTypes;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What Express's {@code sendFile} answers a request for a file of this name, size and mtime: weak ETag from size
 * and mtime, Last-Modified, conditional GET (304/412), single byte ranges (206/416), HEAD, Content-Type from the
 * extension. Decided from the request's headers alone, so that a file on disk and a blob of a store are answered
 * alike; the sender then writes the head and, where {@link #sendsBytes}, the bytes from {@code offset}.
 *
 * @param text a short plain-text body instead of the file's bytes (412, 416), or null
 */
public record SendPlan(int status, Map<String, String> headers, String text, boolean sendsBytes, long offset, long length) {
    private static final String NO_STORE = "must-understand, no-store";
    private static final String REVALIDATE = "public, max-age=0";
    private static final Pattern BYTES_RANGE = Pattern.compile("^ *bytes=");
    private static final Pattern NO_CACHE = Pattern.compile("(?:^|,)\\s*?no-cache\\s*?(?:,|$)");
    private static final DateTimeFormatter HTTP_DATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);

    /**
     * The answer to a GET or HEAD of a file. With {@code firefoxRule}, images sent to Firefox are marked
     * {@code no-store} (ST does this for user images and thumbnails: Firefox otherwise shows stale avatars).
     */
    public static SendPlan of(HttpServerRequest request, String fileName, long size, long modifiedMs, boolean firefoxRule) {
        String etag = "W/\"" + Long.toHexString(size) + "-" + Long.toHexString(modifiedMs) + "\"";
        String lastModified = httpDate(modifiedMs);
        String contentType = MimeTypes.contentType(fileName);
        boolean noStore = firefoxRule && contentType.startsWith("image/") && isFirefox(request);

        Map<String, String> headers = new LinkedHashMap<>();
        headers.put(HttpHeaders.ACCEPT_RANGES.toString(), "bytes");
        headers.put(HttpHeaders.CACHE_CONTROL.toString(), noStore ? NO_STORE : REVALIDATE);
        headers.put(HttpHeaders.LAST_MODIFIED.toString(), lastModified);
        headers.put(HttpHeaders.ETAG.toString(), etag);

        if (preconditionFailed(request, etag, lastModified)) {
            return plain(412, headers, "Precondition Failed");
        }
        if (fresh(request, etag, lastModified)) {
            return new SendPlan(304, headers, null, false, 0, 0);
        }
        headers.put(HttpHeaders.CONTENT_TYPE.toString(), contentType);

        int status = 200;
        long offset = 0;
        long length = size;
        String range = request.getHeader("Range");
        if (range != null && BYTES_RANGE.matcher(range).find()) {
            ByteRanges ranges = ByteRanges.parse(size, range);
            if (ranges != null && !rangeFresh(request, etag, lastModified)) {
                ranges = null;
            }
            if (ranges != null && ranges.unsatisfiable()) {
                headers.put(HttpHeaders.CONTENT_RANGE.toString(), "bytes */" + size);
                return plain(416, headers, "Range Not Satisfiable");
            }
            // Several ranges are answered with the whole file, as Express does.
            if (ranges != null && ranges.single() != null) {
                ByteRanges.Range r = ranges.single();
                status = 206;
                headers.put(HttpHeaders.CONTENT_RANGE.toString(), "bytes " + r.start() + "-" + r.end() + "/" + size);
                offset = r.start();
                length = r.end() - r.start() + 1;
            }
        }
        // Gzip would turn a byte range into a range of the compressed stream, and gains nothing on media.
        if (status == 206 || !compressible(contentType)) {
            headers.put(HttpHeaders.CONTENT_ENCODING.toString(), HttpHeaders.IDENTITY.toString());
        }
        headers.put(HttpHeaders.CONTENT_LENGTH.toString(), Long.toString(length));
        return new SendPlan(status, headers, null, request.method() != HttpMethod.HEAD, offset, length);
    }

    /** Sets the status and headers. */
    public void writeHead(HttpServerResponse response) {
        response.setStatusCode(status);
        headers.forEach(response::putHeader);
    }

    /** Answers in full when no bytes of the file are sent (304, 412, 416, HEAD); false otherwise, nothing written. */
    public boolean answerWithoutBytes(HttpServerResponse response) {
        if (sendsBytes) {
            return false;
        }
        writeHead(response);
        if (text != null) {
            response.end(text);
        } else {
            response.end();
        }
        return true;
    }

    /** An HTTP date ({@code Last-Modified}), as Express writes it. */
    static String httpDate(long epochMs) {
        return HTTP_DATE.format(Instant.ofEpochMilli(epochMs));
    }

    private static SendPlan plain(int status, Map<String, String> headers, String text) {
        headers.put(HttpHeaders.CONTENT_TYPE.toString(), "text/plain; charset=utf-8");
        return new SendPlan(status, headers, text, false, 0, 0);
    }

    /** Whether gzip helps: text-like types; images, audio, video and fonts are compressed already. */
    private static boolean compressible(String contentType) {
        String type = contentType.split(";")[0];
        return type.startsWith("text/") || type.endsWith("+json") || type.endsWith("+xml")
                || type.equals("application/javascript") || type.equals("application/json")
                || type.equals("application/xml") || type.equals("application/wasm");
    }

    private static boolean isFirefox(HttpServerRequest request) {
        String agent = request.getHeader(HttpHeaders.USER_AGENT);
        return agent != null && agent.toLowerCase(Locale.ROOT).contains("firefox");
    }

    /** If-Match / If-Unmodified-Since. */
    private static boolean preconditionFailed(HttpServerRequest request, String etag, String lastModified) {
        String match = request.getHeader(HttpHeaders.IF_MATCH);
        if (match != null) {
            return !match.equals("*") && tokens(match).stream().noneMatch(tag -> sameTag(tag, etag));
        }
        Long unmodifiedSince = parseDate(request.getHeader("If-Unmodified-Since"));
        return unmodifiedSince != null && parseDate(lastModified) > unmodifiedSince;
    }

    /** The "fresh" test of Express: every validator the client sent must match; {@code no-cache} never is. */
    private static boolean fresh(HttpServerRequest request, String etag, String lastModified) {
        String noneMatch = request.getHeader(HttpHeaders.IF_NONE_MATCH);
        String modifiedSince = request.getHeader(HttpHeaders.IF_MODIFIED_SINCE);
        if (noneMatch == null && modifiedSince == null) {
            return false;
        }
        String cacheControl = request.getHeader(HttpHeaders.CACHE_CONTROL);
        if (cacheControl != null && NO_CACHE.matcher(cacheControl).find()) {
            return false;
        }
        if (noneMatch != null && !noneMatch.equals("*")
                && tokens(noneMatch).stream().noneMatch(tag -> sameTag(tag, etag))) {
            return false;
        }
        if (modifiedSince != null) {
            Long since = parseDate(modifiedSince);
            return since != null && parseDate(lastModified) <= since;
        }
        return true;
    }

    private static boolean rangeFresh(HttpServerRequest request, String etag, String lastModified) {
        String ifRange = request.getHeader("If-Range");
        if (ifRange == null) {
            return true;
        }
        if (ifRange.contains("\"")) {
            return ifRange.contains(etag);
        }
        Long date = parseDate(ifRange);
        return date != null && parseDate(lastModified) <= date;
    }

    /** A comma-separated list of entity tags. */
    private static List<String> tokens(String header) {
        return Arrays.stream(header.split(",", -1)).map(String::trim).toList();
    }

    private static boolean sameTag(String tag, String etag) {
        return tag.equals(etag) || ("W/" + tag).equals(etag) || tag.equals("W/" + etag);
    }

    private static Long parseDate(String value) {
        if (value == null) {
            return null;
        }
        try {
            return ZonedDateTime.parse(value.trim(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli();
        } catch (RuntimeException e) {
            return null;
        }
    }
}

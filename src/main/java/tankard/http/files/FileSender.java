package tankard.http.files;

import io.vertx.core.Future;
import io.vertx.core.file.FileProps;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import tankard.util.MimeTypes;

import java.nio.file.AccessDeniedException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Sends a file from disk the way Express's {@code sendFile} does: weak ETag from size and
 * mtime, Last-Modified, conditional GET (304/412), single byte ranges (206/416), HEAD, Content-Type from the
 * extension. Everything is asynchronous: a stat through the Vert.x file system, then {@code sendFile}.
 */
public final class FileSender {
    /** What happened to a send: the file went out, or nothing was written and the caller decides. */
    public enum Outcome { SENT, MISSING, DIRECTORY }

    private static final String NO_STORE = "must-understand, no-store";
    private static final String REVALIDATE = "public, max-age=0";
    private static final Pattern BYTES_RANGE = Pattern.compile("^ *bytes=");
    private static final Pattern NO_CACHE = Pattern.compile("(?:^|,)\\s*?no-cache\\s*?(?:,|$)");
    private static final DateTimeFormatter HTTP_DATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);

    private FileSender() {
    }

    /**
     * Sends {@code file} if it is a regular file. With {@code firefoxRule}, images sent to Firefox are marked
     * {@code no-store} (ST does this for user images and thumbnails: Firefox otherwise shows stale avatars).
     */
    public static Future<Outcome> send(RoutingContext ctx, Path file, boolean firefoxRule) {
        return ctx.vertx().fileSystem().props(file.toString()).transform(stat -> {
            if (stat.failed()) {
                return isMissing(stat.cause()) ? Future.succeededFuture(Outcome.MISSING) : Future.failedFuture(stat.cause());
            }
            FileProps props = stat.result();
            if (props.isDirectory()) {
                return Future.succeededFuture(Outcome.DIRECTORY);
            }
            if (!props.isRegularFile()) {
                return Future.succeededFuture(Outcome.MISSING);
            }
            write(ctx, file, props, firefoxRule);
            return Future.succeededFuture(Outcome.SENT);
        });
    }

    private static void write(RoutingContext ctx, Path file, FileProps props, boolean firefoxRule) {
        HttpServerRequest request = ctx.request();
        HttpServerResponse response = ctx.response();
        long size = props.size();
        String etag = "W/\"" + Long.toHexString(size) + "-" + Long.toHexString(props.lastModifiedTime()) + "\"";
        String lastModified = httpDate(props.lastModifiedTime());
        String contentType = MimeTypes.contentType(file.getFileName().toString());
        boolean noStore = firefoxRule && contentType.startsWith("image/") && isFirefox(request);

        response.putHeader(HttpHeaders.ACCEPT_RANGES, "bytes")
                .putHeader(HttpHeaders.CACHE_CONTROL, noStore ? NO_STORE : REVALIDATE)
                .putHeader(HttpHeaders.LAST_MODIFIED, lastModified)
                .putHeader(HttpHeaders.ETAG, etag);

        if (preconditionFailed(request, etag, lastModified)) {
            plain(response, 412, "Precondition Failed");
            return;
        }
        if (fresh(request, etag, lastModified)) {
            response.setStatusCode(304).end();
            return;
        }
        response.putHeader(HttpHeaders.CONTENT_TYPE, contentType);

        long offset = 0;
        long length = size;
        String range = request.getHeader("Range");
        if (range != null && BYTES_RANGE.matcher(range).find()) {
            ByteRanges ranges = ByteRanges.parse(size, range);
            if (ranges != null && !rangeFresh(request, etag, lastModified)) {
                ranges = null;
            }
            if (ranges != null && ranges.unsatisfiable()) {
                response.putHeader(HttpHeaders.CONTENT_RANGE, "bytes */" + size);
                plain(response, 416, "Range Not Satisfiable");
                return;
            }
            // Several ranges are answered with the whole file, as Express does.
            if (ranges != null && ranges.single() != null) {
                ByteRanges.Range r = ranges.single();
                response.setStatusCode(206)
                        .putHeader(HttpHeaders.CONTENT_RANGE, "bytes " + r.start() + "-" + r.end() + "/" + size);
                offset = r.start();
                length = r.end() - r.start() + 1;
            }
        }
        // Gzip would turn a byte range into a range of the compressed stream, and gains nothing on media.
        if (response.getStatusCode() == 206 || !compressible(contentType)) {
            response.putHeader(HttpHeaders.CONTENT_ENCODING, HttpHeaders.IDENTITY);
        }
        response.putHeader(HttpHeaders.CONTENT_LENGTH, Long.toString(length));
        if (request.method() == HttpMethod.HEAD) {
            response.end();
            return;
        }
        response.sendFile(file.toString(), offset, length).onFailure(error -> {
            if (!response.ended() && !response.closed()) {
                ctx.fail(error);
            }
        });
    }

    /** An HTTP date ({@code Last-Modified}), as Express writes it. */
    public static String httpDate(long epochMs) {
        return HTTP_DATE.format(Instant.ofEpochMilli(epochMs));
    }

    /** A stat failure that means "no such file here" (ENOENT, ENOTDIR, name too long); Node reports 404 for those. */
    private static boolean isMissing(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof java.nio.file.FileSystemException fs) {
                return !(fs instanceof AccessDeniedException);
            }
        }
        return false;
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

    private static void plain(HttpServerResponse response, int status, String text) {
        response.setStatusCode(status)
                .putHeader(HttpHeaders.CONTENT_TYPE, "text/plain; charset=utf-8")
                .end(text);
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

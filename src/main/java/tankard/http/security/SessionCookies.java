package tankard.http.security;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.CookieSameSite;
import io.vertx.ext.web.RoutingContext;
import tankard.json.JsJson;
import tankard.store.AtomicFiles;
import tankard.util.Hashes;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;

/**
 * ST's cookie-session format (ST: src/server-main.js; src/users.js, getCookieSessionName): cookie
 * {@code session-<8 hex>} holds base64 JSON, and {@code <name>.sig} an HMAC-SHA1 (base64url) of {@code name=value}
 * keyed by {@code cookie-secret.txt} on files and by the database's one secret on PostgreSQL. Stateless, so every
 * node that has the same secret accepts the same cookies.
 */
public final class SessionCookies {
    public static final String CONTEXT_KEY = "tankard.session";
    private static final long FOUR_HUNDRED_DAYS = 400L * 24 * 3600;
    private static final String SECRET_FILE = "cookie-secret.txt";

    private final String name;
    /** One keyed HMAC per thread: looking up and keying a Mac costs more than signing a cookie with it. */
    private final ThreadLocal<Mac> hmac;
    private final long timeoutSeconds;

    /**
     * @param name   the cookie's name (see {@link #hostCookieName})
     * @param secret the key the cookies are signed with (see {@link #fileSecret})
     */
    public SessionCookies(String name, String secret, long timeoutSeconds) {
        this.name = name;
        SecretKeySpec key = new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA1");
        this.hmac = ThreadLocal.withInitial(() -> {
            try {
                Mac mac = Mac.getInstance("HmacSHA1");
                mac.init(key);
                return mac;
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
        });
        this.timeoutSeconds = timeoutSeconds;
    }

    public String cookieName() {
        return name;
    }

    /** ST's name of the session cookie: {@code session-} and 8 hex digits of the SHA-256 of the host's name. */
    public static String hostCookieName() {
        return "session-" + hostHash();
    }

    private static String hostHash() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            host = "localhost";
        }
        return Hashes.sha256Hex(host).substring(0, 8);
    }

    /** ST's {@code cookie-secret.txt} of the data root, made when there is none. */
    public static String fileSecret(Path dataRoot) {
        Path file = dataRoot.resolve(SECRET_FILE);
        return existingFileSecret(dataRoot).orElseGet(() -> {
            String secret = newSecret();
            AtomicFiles.write(file, secret);
            return secret;
        });
    }

    /** The data root's {@code cookie-secret.txt}, when it has one that is not empty. */
    public static Optional<String> existingFileSecret(Path dataRoot) {
        Path file = dataRoot.resolve(SECRET_FILE);
        try {
            String text = Files.isRegularFile(file) ? Files.readString(file).trim() : "";
            return text.isEmpty() ? Optional.empty() : Optional.of(text);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
    }

    /** A new random secret, as ST makes one. */
    public static String newSecret() {
        byte[] random = new byte[64];
        new SecureRandom().nextBytes(random);
        return Base64.getEncoder().encodeToString(random);
    }

    /** Reads the request's session (empty when absent or badly signed) and arranges for it to be written back. */
    public Session attach(RoutingContext ctx) {
        Session session = read(ctx);
        ctx.put(CONTEXT_KEY, session);
        ctx.addHeadersEndHandler(v -> {
            if (session.changed()) {
                write(ctx, session);
            }
        });
        return session;
    }

    public static Session of(RoutingContext ctx) {
        return ctx.get(CONTEXT_KEY);
    }

    private Session read(RoutingContext ctx) {
        Cookie cookie = ctx.request().getCookie(name);
        Cookie sig = ctx.request().getCookie(name + ".sig");
        if (cookie == null || sig == null || !MessageDigest.isEqual(
                sign(name + "=" + cookie.getValue()).getBytes(StandardCharsets.US_ASCII),
                sig.getValue().getBytes(StandardCharsets.US_ASCII))) {
            return Session.empty();
        }
        try {
            JsonNode node = JsJson.parse(Base64.getDecoder().decode(cookie.getValue()));
            return node instanceof ObjectNode object ? new Session(object) : Session.empty();
        } catch (RuntimeException e) {
            return Session.empty();
        }
    }

    private void write(RoutingContext ctx, Session session) {
        String value = session.destroyed() ? "" : Base64.getEncoder().encodeToString(JsJson.compactBytes(session.data()));
        Cookie cookie = Cookie.cookie(name, value).setPath("/").setHttpOnly(true).setSameSite(CookieSameSite.LAX);
        Cookie sig = Cookie.cookie(name + ".sig", sign(name + "=" + value)).setPath("/").setHttpOnly(true)
                .setSameSite(CookieSameSite.LAX);
        long maxAge = session.destroyed() ? 0 : timeoutSeconds < 0 ? FOUR_HUNDRED_DAYS : timeoutSeconds;
        if (session.destroyed() || timeoutSeconds != 0) {
            cookie.setMaxAge(maxAge);
            sig.setMaxAge(maxAge);
        }
        ctx.response().addCookie(cookie).addCookie(sig);
    }

    /** keygrip's default: HMAC-SHA1, base64 with the URL-safe alphabet and no padding. */
    private String sign(String data) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(hmac.get().doFinal(data.getBytes(StandardCharsets.UTF_8)));
    }
}

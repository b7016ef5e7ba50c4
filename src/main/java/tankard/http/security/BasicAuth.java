package tankard.http.security;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.config.TankardConfig;
import tankard.user.AccountStore;
import tankard.user.Passwords;
import tankard.user.User;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code basicAuthMode} (only when listening): HTTP Basic credentials on every request, either the
 * {@code basicAuthUser} pair or, with {@code perUserBasicAuth} and accounts, an enabled account's handle and
 * password (ST: src/middleware/basicAuth.js). Failed attempts are limited per client IP.
 */
public final class BasicAuth implements Handler<RoutingContext> {
    private static final Logger LOG = LoggerFactory.getLogger(BasicAuth.class);
    private static final String CHALLENGE = "Basic realm=\"SillyTavern\", charset=\"UTF-8\"";
    private static final String FALLBACK_PAGE = "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Unauthorized"
            + "</title></head><body><h1>Unauthorized</h1><p>This server asks for a user name and password.</p></body></html>";

    /** Credentials as ST splits them: user name before the first colon, password after it. */
    public record Credentials(String username, String password) {
        /** The credentials of an {@code Authorization: Basic …} header; null when there is none. */
        public static Credentials of(String header) {
            if (header == null) {
                return null;
            }
            String[] words = header.split(" ", -1);
            if (words.length < 2 || !words[0].equals("Basic") || words[1].isEmpty()) {
                return null;
            }
            String decoded;
            try {
                decoded = new String(Base64.getMimeDecoder().decode(words[1]), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                decoded = "";
            }
            int colon = decoded.indexOf(':');
            return colon < 0 ? new Credentials(decoded, "") : new Credentials(decoded.substring(0, colon), decoded.substring(colon + 1));
        }
    }

    private final TankardConfig.Security config;
    private final AccountStore accounts;
    private final ClientIp clientIp;
    private final ErrorPages pages;
    private final RateLimiter limiter;
    private final byte[] cacheKey = new byte[32];
    /**
     * Per-user credentials already checked, so that a browser, which sends them with every request, does
     * not cost a scrypt hash each time. Keyed by an HMAC of the header under a per-process random key;
     * the value is the account version tag it matched, so a password change invalidates the entry.
     */
    private final Map<String, String> verified = new ConcurrentHashMap<>();

    public BasicAuth(TankardConfig config, AccountStore accounts) {
        this.config = config.security();
        this.accounts = accounts;
        this.clientIp = new ClientIp(config.security());
        this.pages = new ErrorPages(config.dataRoot());
        this.limiter = new RateLimiter(config.security().basicAuthMaxAttempts(), 60);
        new SecureRandom().nextBytes(cacheKey);
    }

    private boolean perUser() {
        return config.perUserBasicAuth() && config.enableUserAccounts();
    }

    @Override
    public void handle(RoutingContext ctx) {
        String header = ctx.request().getHeader("Authorization");
        Credentials credentials = Credentials.of(header);
        if (credentials == null) {
            unauthorized(ctx);
            return;
        }
        String key = clientIp.rateLimitKey(ctx.request());
        long blocked = limiter.blockedFor(key);
        if (blocked > 0) {
            tooManyAttempts(ctx, key, blocked);
            return;
        }
        if (!perUser()) {
            boolean ok = constantTimeEquals(credentials.username(), config.basicAuthUsername())
                    & constantTimeEquals(credentials.password(), config.basicAuthPassword());
            decide(ctx, key, ok);
            return;
        }
        String cached = verified.get(digest(header));
        if (cached == null) {
            check(ctx, key, header, credentials);
            return;
        }
        // the account as it is now (another node may have changed it), without waiting on an event loop
        SecurityChain.whenFound(ctx, accounts.lookup(credentials.username()), found -> {
            if (found.filter(User::enabled).map(Passwords::versionTag).filter(cached::equals).isPresent()) {
                decide(ctx, key, true);
            } else {
                check(ctx, key, header, credentials);
            }
        });
    }

    /** Checks the credentials on a worker (scrypt), remembering them when they are right. */
    private void check(RoutingContext ctx, String key, String header, Credentials credentials) {
        Future<Optional<User>> checked = ctx.vertx().executeBlocking(() -> account(credentials), false)
                .otherwise(Optional.empty());
        SecurityChain.whenFound(ctx, checked, user -> {
            user.ifPresent(u -> {
                if (verified.size() > 1000) {
                    verified.clear();
                }
                verified.put(digest(header), Passwords.versionTag(u));
            });
            decide(ctx, key, user.isPresent());
        });
    }

    /**
     * The enabled account with a password that the credentials name and match; blocking (scrypt). Also
     * used by the login page's auto-login.
     */
    public Optional<User> account(Credentials credentials) {
        return accounts.find(credentials.username())
                .filter(u -> u.enabled() && u.hasPassword() && Passwords.matches(u, credentials.password()));
    }

    private void decide(RoutingContext ctx, String key, boolean ok) {
        if (ok) {
            limiter.reset(key);
            ctx.next();
            return;
        }
        long retryAfter = limiter.consume(key);
        if (retryAfter > 0) {
            tooManyAttempts(ctx, key, retryAfter);
        } else {
            unauthorized(ctx);
        }
    }

    private void unauthorized(RoutingContext ctx) {
        pages.read(ctx, "unauthorized.html", FALLBACK_PAGE).onComplete(page -> {
            ctx.response().putHeader("WWW-Authenticate", CHALLENGE);
            ErrorPages.send(ctx, 401, page.succeeded() ? page.result() : FALLBACK_PAGE);
        });
    }

    private static void tooManyAttempts(RoutingContext ctx, String key, long retryAfter) {
        LOG.warn("Basic auth failed: rate limited from {} {} {}", key, ctx.request().method(), ctx.request().uri());
        ctx.response().setStatusCode(429).putHeader("Retry-After", String.valueOf(retryAfter))
                .putHeader("Content-Type", "text/plain; charset=utf-8").end("Too Many Requests");
    }

    private static boolean constantTimeEquals(String a, String b) {
        return MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }

    private String digest(String header) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(cacheKey, "HmacSHA256"));
            return Base64.getEncoder().encodeToString(mac.doFinal(header.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}

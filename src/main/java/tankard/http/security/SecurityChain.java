package tankard.http.security;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import tankard.config.TankardConfig;
import tankard.core.Refusal;
import tankard.user.AccountStore;
import tankard.user.Passwords;
import tankard.user.User;

import java.util.Optional;

/**
 * The request gates of ST's src/server-main.js that run before any route: IP whitelist (first, so a stranger learns
 * nothing else), host whitelist, CORS, basic auth, session cookie, user resolution and the CSRF check; then, after
 * the public routes, the authentication gate. Built once and shared by all event loops.
 */
public final class SecurityChain {
    /** Where on the request the chain puts the signed-in user (with accounts off, the default user). */
    private static final String USER_KEY = "tankard.user";

    private final TankardConfig config;
    private final AccountStore accounts;
    private final SessionCookies sessions;
    private final IpWhitelist ipWhitelist;
    private final HostWhitelist hostWhitelist;
    private final CorsFilter cors;
    private final BasicAuth basicAuth;

    public SecurityChain(TankardConfig config, AccountStore accounts, SessionCookies sessions) {
        this.config = config;
        this.accounts = accounts;
        this.sessions = sessions;
        this.ipWhitelist = new IpWhitelist(config.security(), config.dataRoot());
        this.hostWhitelist = new HostWhitelist(config.security(), config.dataRoot());
        this.cors = new CorsFilter(config.cors());
        this.basicAuth = new BasicAuth(config, accounts);
    }

    /** Basic-auth credential checks, also used by the login page's auto-login. */
    public BasicAuth basicAuth() {
        return basicAuth;
    }

    /** Installs the gates that run before the public routes. */
    public void installBeforePublic(Router router) {
        var s = config.security();
        if (s.whitelistMode()) {
            router.route().handler(ipWhitelist);
        }
        if (s.hostWhitelistEnabled()) {
            router.route().handler(hostWhitelist);
        }
        if (config.cors().enabled()) {
            router.route().handler(cors);
        }
        if (config.listen() && s.basicAuthMode()) {
            router.route().handler(basicAuth);
        }
        router.route().handler(this::resolveUser);
        if (!config.security().disableCsrf()) {
            router.route().handler(this::checkCsrf);
        }
    }

    /** Installs the gate that ends requests that have no user; routes after it may rely on {@link Request#user()}. */
    public void installGate(Router router) {
        router.route().handler(ctx -> {
            if (ctx.get(USER_KEY) == null) {
                ctx.fail(Refusal.forbidden("Forbidden: not logged in"));
            } else {
                ctx.next();
            }
        });
    }

    /**
     * Puts the session's account on the request, read from the account store for every request (not from a copy
     * of this node's), so that an account disabled or given a new password on another node is refused here at once.
     */
    private void resolveUser(RoutingContext ctx) {
        Session session = sessions.attach(ctx);
        if (!config.security().enableUserAccounts()) {
            whenFound(ctx, accounts.lookup(User.DEFAULT_HANDLE), user -> {
                ctx.put(USER_KEY, user.orElse(User.defaultUser(0)));
                ctx.next();
            });
            return;
        }
        String handle = session.handle();
        if (handle == null) {
            ctx.next();
            return;
        }
        whenFound(ctx, accounts.lookup(handle), user -> signedIn(ctx, session, user.filter(User::enabled)));
    }

    /**
     * Goes on with the account once it is found; a lookup that fails (the database does not answer) fails the
     * request. While the lookup waits, the request's body waits too: the body handler after the chain must see all
     * of it.
     */
    static void whenFound(RoutingContext ctx, Future<Optional<User>> lookup, Handler<Optional<User>> then) {
        if (!lookup.isComplete()) {
            HttpServerRequest request = ctx.request();
            request.pause();
            ctx.addEndHandler(ended -> request.resume()); // a request refused meanwhile lets its body go by
        }
        lookup.onComplete(then, ctx::fail);
    }

    private void signedIn(RoutingContext ctx, Session session, Optional<User> user) {
        if (user.isPresent()) {
            String version = Passwords.versionTag(user.get());
            if (session.version() == null) {
                // A session from before version tags: adopt the current one, as ST does.
                session.version(version);
            } else if (!version.equals(session.version())) {
                // The password changed since this session logged in (possibly on another node or in ST).
                session.destroy();
                ctx.fail(Refusal.forbidden("Your session has expired; please log in again"));
                return;
            }
        }
        user.ifPresent(u -> ctx.put(USER_KEY, u));
        ctx.next();
    }

    private void checkCsrf(RoutingContext ctx) {
        HttpMethod method = ctx.request().method();
        boolean proxied = config.cors().proxy() && ctx.request().path().startsWith("/proxy/"); // as ST exempts it
        if (method == HttpMethod.GET || method == HttpMethod.HEAD || method == HttpMethod.OPTIONS || proxied) {
            ctx.next();
            return;
        }
        String expected = SessionCookies.of(ctx).csrfToken();
        String given = ctx.request().getHeader("X-CSRF-Token");
        if (expected == null || given == null || !java.security.MessageDigest.isEqual(expected.getBytes(), given.getBytes())) {
            ctx.fail(Refusal.forbidden("Invalid CSRF token. Please refresh the page and try again."));
            return;
        }
        ctx.next();
    }

    /** The user the chain let through, or null on a route before the gate that nobody signed in to. */
    public static User user(RoutingContext ctx) {
        return ctx.get(USER_KEY);
    }
}

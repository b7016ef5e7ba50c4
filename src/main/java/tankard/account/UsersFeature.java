package tankard.account;

import tankard.user.Passwords;
import tankard.user.AccountStore;
import tankard.user.KeptData;
import tankard.user.User;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.config.TankardConfig;
import tankard.content.ContentSeeder;
import tankard.store.BlobStore;
import tankard.store.DocumentStore;
import tankard.store.TicketStore;
import tankard.core.Refusal;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Request;
import tankard.http.Routes;
import tankard.http.security.AutoLogin;
import tankard.http.security.BasicAuth;
import tankard.http.security.ClientIp;
import tankard.http.security.RateLimiter;
import tankard.http.security.Session;
import tankard.http.security.SessionCookies;
import tankard.http.security.SecurityChain;
import tankard.json.Js;
import tankard.json.JsJson;

/**
 * {@code GET /login} and the users API {@code /api/users/*} (ST: src/users.js, loginPageMiddleware;
 * src/endpoints/users-*.js): the public login API, the signed-in user's own account, and the admin's user management.
 */
public final class UsersFeature implements Feature {
    private static final Logger LOG = LoggerFactory.getLogger(UsersFeature.class);
    private static final String MISSING = "Missing required fields";

    private final TankardConfig config;
    private final AccountService accounts;
    private final KeptData kept;
    private final AutoLogin autoLogin;
    private final ClientIp clientIp;
    private final RateLimiter loginLimiter;
    private final RateLimiter recoverLimiter;
    private final OneTimeCodes recoveryCodes;
    private final OneTimeCodes resetCodes;

    public UsersFeature(TankardConfig config, AccountStore store, DocumentStore documents, BlobStore blobs,
                        TicketStore tickets, KeptData kept, ContentSeeder seeder, BasicAuth basicAuth) {
        this.config = config;
        this.recoveryCodes = new OneTimeCodes(tickets, "recovery-code");
        this.resetCodes = new OneTimeCodes(tickets, "reset-code");
        this.kept = kept;
        this.accounts = new AccountService(config, store, documents, blobs, kept, seeder);
        this.autoLogin = new AutoLogin(config, store, basicAuth);
        this.clientIp = new ClientIp(config.security());
        this.loginLimiter = new RateLimiter(config.security().loginMaxAttempts(), 60);
        this.recoverLimiter = new RateLimiter(config.security().recoverMaxAttempts(), 300);
    }

    @Override
    public void mountPublic(Router router, Routes routes) {
        router.get("/login").handler(this::loginPage);
        router.post("/api/users/list").handler(routes.blocking(this::list));
        router.post("/api/users/login").handler(routes.blocking(this::login));
        router.post("/api/users/recover-step1").handler(routes.blocking(this::recoverStep1));
        router.post("/api/users/recover-step2").handler(routes.blocking(this::recoverStep2));
    }

    @Override
    public void mount(Router router, Routes routes) {
        router.post("/api/users/logout").handler(routes.inline(request -> {
            request.session().destroy();
            return Reply.noContent();
        }));
        router.get("/api/users/me").handler(routes.blocking(request -> Reply.json(accounts.selfView(request.user()))));
        router.post("/api/users/change-avatar").handler(routes.blocking(request -> {
            accounts.changeAvatar(request.user(), required(request, "handle"), request.text("avatar"));
            return Reply.noContent();
        }));
        router.post("/api/users/change-password").handler(routes.blocking(this::changePassword));
        router.post("/api/users/change-name").handler(routes.blocking(request -> {
            String name = required(request, "name");
            accounts.changeName(request.user(), required(request, "handle"), name);
            return Reply.noContent();
        }));
        router.post("/api/users/backup").handler(routes.blocking(this::backup));
        router.post("/api/users/reset-settings").handler(routes.blocking(request -> {
            accounts.resetSettings(request.user(), request.text("password"));
            return Reply.noContent();
        }));
        router.post("/api/users/reset-step1").handler(routes.blocking(request -> {
            String code = resetCodes.issue(request.user().handle(), 1000, 9999);
            console(request.user().name() + ", your account reset code is: " + code);
            return Reply.noContent();
        }));
        router.post("/api/users/reset-step2").handler(routes.blocking(this::resetStep2));

        admin(router, routes, "get", request -> {
            ArrayNode views = JsJson.array();
            accounts.all().forEach(u -> views.add(accounts.adminView(u)));
            return Reply.json(views);
        });
        admin(router, routes, "disable", request -> {
            accounts.setEnabled(request.user(), required(request, "handle"), false);
            return Reply.noContent();
        });
        admin(router, routes, "enable", request -> {
            accounts.setEnabled(request.user(), required(request, "handle"), true);
            return Reply.noContent();
        });
        admin(router, routes, "promote", request -> {
            accounts.setAdmin(request.user(), required(request, "handle"), true);
            return Reply.noContent();
        });
        admin(router, routes, "demote", request -> {
            accounts.setAdmin(request.user(), required(request, "handle"), false);
            return Reply.noContent();
        });
        admin(router, routes, "create", request -> {
            String handle = required(request, "handle");
            String name = required(request, "name");
            User user = accounts.create(handle, name, request.text("password"), Js.truthy(request.body().get("admin")));
            return Reply.json(JsJson.object().put("handle", user.handle()));
        });
        admin(router, routes, "delete", request -> {
            accounts.delete(request.user(), required(request, "handle"), Js.truthy(request.body().get("purge")));
            return Reply.noContent();
        });
        admin(router, routes, "slugify", request -> Reply.text(Slug.of(required(request, "text"))));
    }

    /** An admin route: non-admins get ST's plain {@code 403 Forbidden}. */
    private void admin(Router router, Routes routes, String name, Routes.Action action) {
        router.post("/api/users/" + name)
                .handler(ctx -> {
                    User user = SecurityChain.user(ctx);
                    if (user == null || !user.admin()) {
                        LOG.warn("Unauthorized access to admin endpoint {}", ctx.request().path());
                        Reply.status(403).writeTo(ctx.response());
                    } else {
                        ctx.next();
                    }
                })
                .handler(routes.blocking(action));
    }

    // ---- login page

    private void loginPage(RoutingContext ctx) {
        if (!config.security().enableUserAccounts()) {
            ctx.redirect("/");
            return;
        }
        String noauto = ctx.request().getParam("noauto");
        if (SecurityChain.user(ctx) != null || noauto != null && !noauto.isEmpty()) {
            sendLoginPage(ctx);
            return;
        }
        var request = ctx.request();
        var evidence = new AutoLogin.Evidence(ClientIp.socket(request), request.getHeader("Remote-User"),
                request.getHeader("X-Authentik-Username"), request.getHeader("Authorization"));
        ctx.vertx().executeBlocking(() -> autoLogin.attempt(evidence), false).onComplete(result -> {
            if (result.succeeded() && result.result().isPresent()) {
                User user = result.result().get();
                LOG.info("Auto-login: {} from {}", user.handle(), ClientIp.socketText(request));
                SessionCookies.of(ctx).login(user.handle(), Passwords.versionTag(user));
                ctx.redirect("/");
                return;
            }
            if (result.failed()) {
                LOG.error("Auto-login failed", result.cause());
            }
            sendLoginPage(ctx);
        });
    }

    private void sendLoginPage(RoutingContext ctx) {
        ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, "text/html; charset=utf-8")
                .sendFile(config.frontendDir().resolve("login.html").toString())
                .onFailure(e -> ctx.fail(Refusal.notFound("Not found: /login")));
    }

    // ---- public API

    private Reply list(Request request) {
        if (config.security().enableDiscreetLogin()) {
            return Reply.noContent();
        }
        ArrayNode views = JsJson.array();
        accounts.all().stream().filter(User::enabled).forEach(u -> views.add(accounts.loginView(u)));
        return Reply.json(views);
    }

    private Reply login(Request request) {
        String handle = required(request, "handle");
        String ip = clientIp.rateLimitKey(request.ctx().request());
        long retryAfter = loginLimiter.consume(ip);
        if (retryAfter > 0) {
            LOG.warn("Login failed: rate limited from {}", ip);
            throw tooManyAttempts(request, retryAfter, "Too many attempts. Try again later or recover your password.");
        }
        User user = accounts.login(handle, request.text("password"));
        loginLimiter.reset(ip);
        request.session().login(user.handle(), Passwords.versionTag(user));
        LOG.info("Login successful: {} from {}", user.handle(), ip);
        return Reply.json(JsJson.object().put("handle", user.handle()));
    }

    private Reply recoverStep1(Request request) {
        String handle = required(request, "handle");
        String ip = clientIp.rateLimitKey(request.ctx().request());
        long retryAfter = recoverLimiter.consume(ip);
        if (retryAfter > 0) {
            throw tooManyAttempts(request, retryAfter, "Too many attempts. Try again later or contact your admin.");
        }
        User user = enabledAccount(handle);
        console(user.name() + ", your password recovery code is: " + recoveryCodes.issueDigits(user.handle(), 6));
        return Reply.noContent();
    }

    private Reply recoverStep2(Request request) {
        JsonNode code = request.body().get("code");
        if (!Js.truthy(request.body().get("handle")) || !Js.truthy(code)) {
            throw Refusal.badRequest(MISSING);
        }
        String handle = request.text("handle");
        String ip = clientIp.rateLimitKey(request.ctx().request());
        long blocked = recoverLimiter.blockedFor(ip);
        if (blocked > 0) {
            throw tooManyAttempts(request, blocked, "Too many attempts. Try again later or contact your admin.");
        }
        User user = enabledAccount(handle);
        if (!code.isTextual() || !recoveryCodes.use(user.handle(), code.textValue())) {
            long retryAfter = recoverLimiter.consume(ip);
            if (retryAfter > 0) {
                throw tooManyAttempts(request, retryAfter, "Too many attempts. Try again later or contact your admin.");
            }
            throw Refusal.forbidden("Incorrect code");
        }
        User changed = accounts.setPassword(user.handle(), request.text("newPassword"));
        keepSessionValid(request.session(), changed);
        recoverLimiter.reset(ip);
        return Reply.noContent();
    }

    private User enabledAccount(String handle) {
        User user = accounts.require(handle);
        if (!user.enabled()) {
            throw Refusal.forbidden("User is disabled");
        }
        return user;
    }

    // ---- own account

    private Reply changePassword(Request request) {
        User changed = accounts.changePassword(request.user(), required(request, "handle"),
                request.text("oldPassword"), request.text("newPassword"));
        keepSessionValid(request.session(), changed);
        return Reply.noContent();
    }

    /** After a password change the caller's own session carries the new version tag instead of going stale. */
    private static void keepSessionValid(Session session, User changed) {
        if (changed.handle().equals(session.handle())) {
            session.version(Passwords.versionTag(changed));
        }
    }

    private Reply backup(Request request) throws Exception {
        if (!config.backups().allowFullDataBackup()) {
            throw Refusal.forbidden("Full data backup is disabled");
        }
        String handle = required(request, "handle");
        AccountService.requireSelfOrAdmin(request.user(), handle);
        User user = accounts.require(handle);
        LOG.info("Backup requested for {}", handle);
        return Reply.attachment(BackupArchive.fileName(handle), Reply.stream("application/zip",
                out -> BackupArchive.write(accounts.folder(user), each -> kept.forEach(handle, each),
                        config.allowKeysExposure(), out)));
    }

    private Reply resetStep2(Request request) {
        JsonNode code = request.body().get("code");
        if (!Js.truthy(code)) {
            throw Refusal.badRequest(MISSING);
        }
        User user = request.user();
        if (!Passwords.matches(user, request.text("password"))) {
            throw Refusal.badRequest("Incorrect password");
        }
        if (!code.isTextual() || !resetCodes.use(user.handle(), code.textValue())) {
            throw Refusal.badRequest("Incorrect code");
        }
        accounts.resetData(user);
        return Reply.noContent();
    }

    // ---- helpers

    /** A field ST requires with {@code if (!body.field)}: any falsy value is missing. */
    private static String required(Request request, String field) {
        if (!Js.truthy(request.body().get(field))) {
            throw Refusal.badRequest(MISSING);
        }
        return request.text(field);
    }

    private static Refusal tooManyAttempts(Request request, long retryAfter, String message) {
        request.ctx().response().putHeader("Retry-After", String.valueOf(retryAfter));
        return Refusal.tooManyRequests(message);
    }

    /** Codes go to the server console, where only whoever runs the server can read them (as in ST). */
    private static void console(String line) {
        System.out.println();
        System.out.println(line);
        System.out.println();
    }
}

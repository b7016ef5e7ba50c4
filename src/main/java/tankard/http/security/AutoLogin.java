package tankard.http.security;

import tankard.config.TankardConfig;
import tankard.user.AccountStore;
import tankard.user.User;
import tankard.util.IpAddress;
import tankard.util.IpPattern;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The logins {@code GET /login} performs without asking (ST: src/users.js, tryAutoLogin), tried in ST's order: the
 * only account when it has no password; the user named by an SSO proxy header (Authelia {@code Remote-User},
 * Authentik {@code X-Authentik-Username}) when the request comes from a trusted proxy; per-user basic auth.
 */
public final class AutoLogin {
    /** What the attempt looks at, taken from the request. */
    public record Evidence(IpAddress socketIp, String remoteUser, String authentikUser, String authorization) {
    }

    private final TankardConfig.Security config;
    private final AccountStore accounts;
    private final BasicAuth basicAuth;
    private final boolean trustAllProxies;
    private final List<IpPattern> trustedProxies;

    public AutoLogin(TankardConfig config, AccountStore accounts, BasicAuth basicAuth) {
        this.config = config.security();
        this.accounts = accounts;
        this.basicAuth = basicAuth;
        List<String> proxies = config.security().ssoTrustedProxies();
        this.trustAllProxies = proxies.size() == 1 && proxies.get(0).equals("*");
        this.trustedProxies = trustAllProxies ? List.of() : IpPattern.parseAll(proxies, "sso.trustedProxies");
    }

    /** The account to log in, if any rule applies. Blocking (may hash a password). */
    public Optional<User> attempt(Evidence evidence) {
        List<User> users = accounts.users();
        // ST also logs in a disabled only account, which then bounces between / and /login; we do not.
        if (users.size() == 1 && !users.get(0).hasPassword() && users.get(0).enabled()) {
            return Optional.of(users.get(0));
        }
        if (config.autheliaAuth()) {
            Optional<User> user = fromProxyHeader(evidence.remoteUser(), evidence.socketIp());
            if (user.isPresent()) {
                return user;
            }
        }
        if (config.authentikAuth()) {
            Optional<User> user = fromProxyHeader(evidence.authentikUser(), evidence.socketIp());
            if (user.isPresent()) {
                return user;
            }
        }
        if (config.basicAuthMode() && config.perUserBasicAuth()) {
            BasicAuth.Credentials credentials = BasicAuth.Credentials.of(evidence.authorization());
            if (credentials != null) {
                return basicAuth.account(credentials);
            }
        }
        return Optional.empty();
    }

    private Optional<User> fromProxyHeader(String name, IpAddress socketIp) {
        if (name == null || name.isEmpty()) {
            return Optional.empty();
        }
        if (!trustAllProxies && !IpPattern.anyMatches(trustedProxies, socketIp)) {
            return Optional.empty();
        }
        return accounts.find(name.toLowerCase(Locale.ROOT)).filter(User::enabled);
    }
}

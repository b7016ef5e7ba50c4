package tankard.account;

import tankard.user.Passwords;
import tankard.user.AccountStore;
import tankard.user.KeptData;
import tankard.user.UserDirs;
import tankard.user.User;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.http.MimeMapping;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.config.TankardConfig;
import tankard.content.ContentSeeder;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.settings.SettingsService;
import tankard.store.AtomicFiles;
import tankard.store.BlobStore;
import tankard.store.DocumentStore;
import tankard.store.DocumentStore.Folder;
import tankard.util.Sanitize;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Account management behind {@code /api/users/*} (ST: src/endpoints/users-*.js): logins, passwords, names, avatars,
 * user creation and deletion, and the per-user folder work that goes with them. Blocking (disk, scrypt); the error
 * texts are the ones ST's login page and admin panel show.
 */
public final class AccountService {
    private static final Logger LOG = LoggerFactory.getLogger(AccountService.class);
    private static final String DEFAULT_AVATAR = "/img/default-user.png";
    /** The user's folder of persona images (ST: src/constants.js, USER_DIRECTORY_TEMPLATE, avatars). */
    private static final String AVATARS = "User Avatars/";

    private final Path dataRoot;
    private final AccountStore accounts;
    private final DocumentStore documents;
    private final BlobStore blobs;
    private final KeptData kept;
    private final ContentSeeder seeder;

    public AccountService(TankardConfig config, AccountStore accounts, DocumentStore documents, BlobStore blobs,
                          KeptData kept, ContentSeeder seeder) {
        this.dataRoot = config.dataRoot();
        this.accounts = accounts;
        this.documents = documents;
        this.blobs = blobs;
        this.kept = kept;
        this.seeder = seeder;
    }

    public List<User> all() {
        return accounts.users();
    }

    public User require(String handle) {
        return accounts.find(handle).orElseThrow(() -> Refusal.notFound("User not found"));
    }

    /** Changes an account as one step of the store's (no change of another request or node in between). */
    private User change(String handle, UnaryOperator<User> change) {
        return accounts.update(handle, change).orElseThrow(() -> Refusal.notFound("User not found"));
    }

    /** The user's folder on this node: all the user's data on files, what stays on the node on PostgreSQL. */
    public Path folder(User user) {
        return UserDirs.of(dataRoot, user.handle()).root();
    }

    // ---- view models

    /** {@code {handle, name, created, avatar, password}} of the login page's user list. */
    public ObjectNode loginView(User user) {
        ObjectNode view = JsJson.object().put("handle", user.handle()).put("name", user.name()).put("created", user.created());
        return view.put("avatar", avatar(user.handle())).put("password", user.hasPassword());
    }

    /** {@code {handle, name, avatar, admin, password, created}} of {@code /api/users/me}. */
    public ObjectNode selfView(User user) {
        return JsJson.object().put("handle", user.handle()).put("name", user.name()).put("avatar", avatar(user.handle()))
                .put("admin", user.admin()).put("password", user.hasPassword()).put("created", user.created());
    }

    /** {@code {handle, name, avatar, admin, enabled, created, password}} of the admin's user list. */
    public ObjectNode adminView(User user) {
        return JsJson.object().put("handle", user.handle()).put("name", user.name()).put("avatar", avatar(user.handle()))
                .put("admin", user.admin()).put("enabled", user.enabled()).put("created", user.created())
                .put("password", user.hasPassword());
    }

    /**
     * The account's custom avatar; else its persona image named in settings.json, as a data URL; else the
     * default picture. Unreadable settings or images fall back quietly, as in ST.
     */
    public String avatar(String handle) {
        var custom = accounts.avatar(handle);
        if (custom.isPresent()) {
            return custom.get();
        }
        try {
            JsonNode settings = documents.read(handle, Folder.ROOT, SettingsService.FILE).map(JsJson::tryParse).orElse(null);
            String file = settings == null ? null : firstText(settings.path("power_user").path("default_persona"),
                    settings.path("user_avatar"));
            String name = file == null ? "" : Sanitize.filename(file);
            Optional<InputStream> image = Sanitize.isSafeSegment(name) ? blobs.open(handle, AVATARS + name)
                    : Optional.empty();
            if (image.isEmpty()) {
                return DEFAULT_AVATAR;
            }
            String mime = MimeMapping.mimeTypeForFilename(name);
            try (InputStream in = image.get()) {
                return "data:" + (mime == null ? "application/octet-stream" : mime) + ";base64,"
                        + Base64.getEncoder().encodeToString(in.readAllBytes());
            }
        } catch (IOException | RuntimeException e) {
            return DEFAULT_AVATAR;
        }
    }

    private static String firstText(JsonNode... candidates) {
        for (JsonNode node : candidates) {
            if (node.isTextual() && !node.textValue().isEmpty()) {
                return node.textValue();
            }
        }
        return null;
    }

    // ---- login and passwords

    /** The account the credentials log in to; accounts without a password accept any. */
    public User login(String handle, String password) {
        User user = accounts.find(handle).orElse(null);
        if (user == null) {
            LOG.warn("Login failed: user {} not found", handle);
            throw Refusal.forbidden("Incorrect credentials");
        }
        if (!user.enabled()) {
            LOG.warn("Login failed: user {} is disabled", handle);
            throw Refusal.forbidden("User is disabled");
        }
        if (!Passwords.matches(user, password)) {
            LOG.warn("Login failed: incorrect password for {}", handle);
            throw Refusal.forbidden("Incorrect credentials");
        }
        return user;
    }

    /** Sets a new password (new salt), or removes it when {@code newPassword} is empty. Returns the new record. */
    public User setPassword(String handle, String newPassword) {
        boolean set = newPassword != null && !newPassword.isEmpty();
        String salt = set ? Passwords.newSalt() : "";
        String hash = set ? Passwords.hash(newPassword, salt) : "";
        return change(handle, user -> new User(user.handle(), user.name(), user.created(), hash, salt, user.admin(),
                user.enabled()));
    }

    /** {@code change-password}: admins may change anyone's without the old one; others need it if one is set. */
    public User changePassword(User actor, String handle, String oldPassword, String newPassword) {
        requireSelfOrAdmin(actor, handle);
        User user = require(handle);
        if (!user.enabled()) {
            throw Refusal.forbidden("User is disabled");
        }
        if (!actor.admin() && !Passwords.matches(user, oldPassword)) {
            throw Refusal.forbidden("Incorrect password");
        }
        return setPassword(handle, newPassword);
    }

    public void changeName(User actor, String handle, String name) {
        requireSelfOrAdmin(actor, handle);
        change(handle, user -> new User(user.handle(), name, user.created(), user.password(), user.salt(), user.admin(),
                user.enabled()));
    }

    /** Stores a {@code data:image/…} URL as the account's avatar; an empty one resets it. */
    public void changeAvatar(User actor, String handle, String avatar) {
        requireSelfOrAdmin(actor, handle);
        if (avatar == null || !avatar.isEmpty() && !avatar.startsWith("data:image/")) {
            throw Refusal.badRequest("Invalid data URL");
        }
        require(handle);
        accounts.saveAvatar(handle, avatar);
    }

    public static void requireSelfOrAdmin(User actor, String handle) {
        if (!handle.equals(actor.handle()) && !actor.admin()) {
            throw Refusal.forbidden("Unauthorized");
        }
    }

    // ---- admin

    public void setEnabled(User actor, String handle, boolean enabled) {
        if (!enabled && handle.equals(actor.handle())) {
            throw Refusal.badRequest("Cannot disable yourself");
        }
        change(handle, u -> new User(u.handle(), u.name(), u.created(), u.password(), u.salt(), u.admin(), enabled));
    }

    public void setAdmin(User actor, String handle, boolean admin) {
        if (!admin && handle.equals(actor.handle())) {
            throw Refusal.badRequest("Cannot demote yourself");
        }
        change(handle, u -> new User(u.handle(), u.name(), u.created(), u.password(), u.salt(), admin, u.enabled()));
    }

    /** Creates an account under the slug of {@code handle}, with its folders and default content. */
    public User create(String handle, String name, String password, boolean admin) {
        String slug = Slug.of(handle);
        if (slug.isEmpty()) {
            throw Refusal.badRequest("Invalid handle");
        }
        String salt = Passwords.newSalt();
        String hash = password == null || password.isEmpty() ? "" : Passwords.hash(password, salt);
        User user = new User(slug, name, System.currentTimeMillis(), hash, salt, admin, true);
        if (!accounts.create(user)) {
            throw Refusal.conflict("User already exists");
        }
        LOG.info("Creating data directories for {}", slug);
        prepareFolder(slug, Set.of("settings"));
        return user;
    }

    /** Removes the account; with {@code purge} also its data folder. */
    public void delete(User actor, String handle, boolean purge) {
        if (handle.equals(actor.handle())) {
            throw Refusal.badRequest("Cannot delete yourself");
        }
        if (handle.equals(User.DEFAULT_HANDLE)) {
            throw Refusal.badRequest("Sorry, but the default user cannot be deleted. It is required as a fallback.");
        }
        if (!Slug.isSlug(handle)) {
            // Never a real handle; refusing keeps "purge" away from the store and other folders of the data root.
            throw Refusal.badRequest("Invalid handle");
        }
        accounts.delete(handle);
        if (purge) {
            LOG.info("Deleting data directories for {}", handle);
            kept.erase(handle);
            AtomicFiles.deleteTree(UserDirs.of(dataRoot, handle).root());
        }
    }

    // ---- the user's own data

    /** Deletes settings.json and seeds the default one again. */
    public void resetSettings(User user, String password) {
        if (!Passwords.matches(user, password)) {
            throw Refusal.forbidden("Incorrect password");
        }
        documents.delete(user.handle(), Folder.ROOT, SettingsService.FILE);
        seeder.seedUser(user.handle(), Set.of("settings"));
    }

    /** Deletes the whole user folder and recreates it with default content. */
    public void resetData(User user) {
        LOG.info("Resetting account data: {}", user.handle());
        kept.erase(user.handle());
        AtomicFiles.deleteTree(folder(user));
        prepareFolder(user.handle(), Set.of());
    }

    /** The folder tree, the "system prompts already migrated" marker ST expects, and default content. */
    private void prepareFolder(String handle, Set<String> forcedTypes) {
        UserDirs.of(dataRoot, handle).createAll();
        seeder.markSyspromptsMigrated(handle);
        seeder.seedUser(handle, forcedTypes);
    }
}

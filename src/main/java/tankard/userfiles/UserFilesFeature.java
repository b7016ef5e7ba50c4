package tankard.userfiles;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import tankard.character.CardFile;
import tankard.character.CardImages;
import tankard.config.TankardConfig;
import tankard.core.Refusal;
import tankard.http.BlobSender;
import tankard.http.FailureHandler;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;
import tankard.http.files.ConfinedPath;
import tankard.http.files.FileSender;
import tankard.http.files.FileSender.Outcome;
import tankard.http.security.SecurityChain;
import tankard.store.BlobStore;
import tankard.user.UserDirs;

import java.nio.file.Path;

/**
 * The signed-in user's files over plain GET (ST: src/users.js, createRouteHandler): card images, backgrounds, persona
 * images, assets, chat images, data bank files (from the blob store) and per-user third-party extensions (files of
 * the node). Each route is confined to its folder; refused paths answer 403, missing files 404 (ST's
 * {@code sendStatus} bodies).
 */
public record UserFilesFeature(TankardConfig config, CardImages cardImages, BlobStore blobs) implements Feature {
    private static final String CHARACTERS = "characters";

    @Override
    public void mount(Router router, Routes routes) {
        getOrHead(router, "/characters/*").handler(this::characterFile);
        serve(router, "/backgrounds/*", "backgrounds");
        serve(router, "/User%20Avatars/*", "User Avatars");
        serve(router, "/assets/*", "assets");
        serve(router, "/user/images/*", "user/images");
        serve(router, "/user/files/*", "user/files");
        getOrHead(router, "/scripts/extensions/third-party/*").handler(this::extensionFile);
    }

    private void serve(Router router, String route, String folder) {
        getOrHead(router, route).handler(ctx -> {
            String path = confined(ctx, folder);
            if (path != null) {
                sendBlob(ctx, path);
            }
        });
    }

    private static Route getOrHead(Router router, String path) {
        return router.route(path).method(HttpMethod.GET).method(HttpMethod.HEAD);
    }

    /** A card (a {@code .png} directly in {@code characters/}) from wherever the cards are; sprites and others as blobs. */
    private void characterFile(RoutingContext ctx) {
        String path = confined(ctx, CHARACTERS);
        if (path == null) {
            return;
        }
        String name = path.substring(Math.min(path.length(), CHARACTERS.length() + 1));
        if (name.contains("/") || !CardFile.isCardName(name)) {
            sendBlob(ctx, path);
            return;
        }
        String user = SecurityChain.user(ctx).handle();
        ctx.vertx().executeBlocking(() -> cardImages.file(user, name), false)
                .compose(file -> FileSender.send(ctx, file, true))
                .onSuccess(notFoundUnlessSent(ctx)).onFailure(ctx::fail);
    }

    /** The path in the user's folder the request names in one of its folders; null when refused (answered). */
    private static String confined(RoutingContext ctx, String folder) {
        try {
            return ConfinedPath.blobPath(folder, ctx.pathParam("*"));
        } catch (Refusal refused) {
            Reply.status(FailureHandler.status(refused)).writeTo(ctx.response());
            return null;
        }
    }

    private void sendBlob(RoutingContext ctx, String path) {
        if (!blobs.keeps(path)) {
            Reply.status(404).writeTo(ctx.response()); // a folder, a name no blob can have, a file of another store
            return;
        }
        BlobSender.send(ctx, blobs, SecurityChain.user(ctx).handle(), path, true)
                .onSuccess(notFoundUnlessSent(ctx)).onFailure(ctx::fail);
    }

    /** The user's own extension first, then the global one of the frontend (ST serves both under one path). */
    private void extensionFile(RoutingContext ctx) {
        if (!config.extensionsEnabled()) {
            Reply.status(404).writeTo(ctx.response());
            return;
        }
        String relative = ctx.pathParam("*");
        Path own;
        Path global;
        try {
            own = ConfinedPath.resolve(UserDirs.of(config.dataRoot(), SecurityChain.user(ctx).handle()).extensions(),
                    relative);
            global = ConfinedPath.resolve(config.frontendDir().resolve("scripts/extensions/third-party"), relative);
        } catch (Refusal refused) {
            Reply.status(FailureHandler.status(refused)).writeTo(ctx.response());
            return;
        }
        FileSender.send(ctx, own, false)
                .compose(outcome -> outcome == Outcome.SENT ? Future.succeededFuture(outcome)
                        : FileSender.send(ctx, global, false))
                .onSuccess(notFoundUnlessSent(ctx))
                .onFailure(ctx::fail);
    }

    private static Handler<Outcome> notFoundUnlessSent(RoutingContext ctx) {
        return outcome -> {
            if (outcome != Outcome.SENT) {
                Reply.status(404).writeTo(ctx.response());
            }
        };
    }
}

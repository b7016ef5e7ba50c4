package tankard.userfiles;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import tankard.character.CardImages;
import tankard.config.TankardConfig;
import tankard.core.Refusal;
import tankard.http.FailureHandler;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;
import tankard.http.files.ConfinedPath;
import tankard.http.files.FileSender;
import tankard.http.files.FileSender.Outcome;
import tankard.http.security.SecurityChain;
import tankard.user.User;
import tankard.user.UserDirs;

import java.nio.file.Path;
import java.util.function.Function;

/**
 * The signed-in user's files over plain GET (ST: src/users.js, createRouteHandler): card images, backgrounds, persona
 * images, assets, chat images, data bank files and per-user third-party extensions. Each route is confined to its
 * folder; refused paths answer 403, missing files 404 (ST's {@code sendStatus} bodies).
 */
public record UserFilesFeature(TankardConfig config, CardImages cardImages) implements Feature {
    @Override
    public void mount(Router router, Routes routes) {
        getOrHead(router, "/characters/*").handler(this::characterFile);
        serve(router, "/backgrounds/*", UserDirs::backgrounds);
        serve(router, "/User%20Avatars/*", UserDirs::avatars);
        serve(router, "/assets/*", UserDirs::assets);
        serve(router, "/user/images/*", UserDirs::userImages);
        serve(router, "/user/files/*", UserDirs::userFiles);
        getOrHead(router, "/scripts/extensions/third-party/*").handler(this::extensionFile);
    }

    private void serve(Router router, String path, Function<UserDirs, Path> folder) {
        getOrHead(router, path).handler(userFile(folder));
    }

    private static Route getOrHead(Router router, String path) {
        return router.route(path).method(HttpMethod.GET).method(HttpMethod.HEAD);
    }

    /** A card (a {@code .png} directly in {@code characters/}) from wherever the cards are; other files as files. */
    private void characterFile(RoutingContext ctx) {
        User user = SecurityChain.user(ctx);
        Path folder = UserDirs.of(config.dataRoot(), user.handle()).characters();
        Path file;
        try {
            file = ConfinedPath.resolve(folder, ctx.pathParam("*"));
        } catch (Refusal refused) {
            Reply.status(FailureHandler.status(refused)).writeTo(ctx.response());
            return;
        }
        String name = file.getFileName().toString();
        Future<Path> source = folder.equals(file.getParent())
                ? ctx.vertx().executeBlocking(() -> cardImages.file(user.handle(), name), false)
                : Future.succeededFuture(file);
        source.compose(path -> FileSender.send(ctx, path, true)).onSuccess(notFoundUnlessSent(ctx)).onFailure(ctx::fail);
    }

    private Handler<RoutingContext> userFile(Function<UserDirs, Path> folder) {
        return ctx -> {
            Path file;
            try {
                file = ConfinedPath.resolve(folder.apply(dirs(ctx)), ctx.pathParam("*"));
            } catch (Refusal refused) {
                Reply.status(FailureHandler.status(refused)).writeTo(ctx.response());
                return;
            }
            FileSender.send(ctx, file, true).onSuccess(notFoundUnlessSent(ctx)).onFailure(ctx::fail);
        };
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
            own = ConfinedPath.resolve(dirs(ctx).extensions(), relative);
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

    private UserDirs dirs(RoutingContext ctx) {
        User user = SecurityChain.user(ctx);
        return UserDirs.of(config.dataRoot(), user.handle());
    }
}

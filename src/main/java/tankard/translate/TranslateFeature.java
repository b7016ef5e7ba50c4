package tankard.translate;

import io.vertx.ext.web.Router;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;

import java.nio.charset.StandardCharsets;

/**
 * {@code /api/translate/*}, the server side of ST's Chat Translation extension (ST: src/endpoints/translate.js):
 * each route answers the translation as text, once the service has answered; the wait holds no thread.
 */
public record TranslateFeature(TranslateService translate) implements Feature {
    private static final String BASE = "/api/translate";

    @Override
    public void mount(Router router, Routes routes) {
        router.post(BASE + "/libre").handler(routes.later(request ->
                translate.libre(request.user().handle(), request.body()).thenApply(Reply::text)));
        // ST sets this one's type itself; the others are Express's text/html of a sent string
        router.post(BASE + "/google").handler(routes.later(request ->
                translate.google(request.body()).thenApply(TranslateFeature::plainText)));
        router.post(BASE + "/yandex").handler(routes.later(request ->
                translate.yandex(request.body()).thenApply(Reply::text)));
        router.post(BASE + "/lingva").handler(routes.later(request ->
                translate.lingva(request.user().handle(), request.body()).thenApply(Reply::text)));
        router.post(BASE + "/deepl").handler(routes.later(request ->
                translate.deepl(request.user().handle(), request.body()).thenApply(Reply::text)));
        router.post(BASE + "/onering").handler(routes.later(request ->
                translate.onering(request.user().handle(), request.body()).thenApply(Reply::text)));
        router.post(BASE + "/deeplx").handler(routes.later(request ->
                translate.deeplx(request.user().handle(), request.body()).thenApply(Reply::text)));
        router.post(BASE + "/bing").handler(routes.later(request ->
                translate.bing(request.body()).thenApply(Reply::text)));
    }

    private static Reply plainText(String text) {
        return new Reply.Body(200, "text/plain; charset=utf-8", text.getBytes(StandardCharsets.UTF_8));
    }
}

package tankard.worldinfo;

import io.vertx.ext.web.FileUpload;
import io.vertx.ext.web.Router;
import tankard.core.Refusal;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Request;
import tankard.http.Routes;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.json.JsonFiles;
import tankard.store.DocumentStore;
import tankard.util.FileNames;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Lorebooks, {@code /api/worldinfo/*} (ST: src/endpoints/worldinfo.js). The server only stores books: foreign formats
 * (NovelAI, Agnai, Risu) are converted by the frontend, which posts the result as {@code convertedData}, and export
 * is a download the frontend makes from the book it has loaded.
 */
public final class WorldInfoFeature implements Feature {
    private final WorldInfoStore books;

    public WorldInfoFeature(DocumentStore documents) {
        this.books = new WorldInfoStore(documents);
    }

    @Override
    public void mount(Router router, Routes routes) {
        router.post("/api/worldinfo/get").handler(routes.blocking(request -> {
            String text = books.read(request.user().handle(), request.text("name"));
            if (text == null) {
                return Reply.json(JsJson.object().set("entries", JsJson.object()));
            }
            if (JsonFiles.tryParse(text) == null) { // a file broken on disk, not a bad request: ST's JSON.parse throws too
                throw Refusal.failed("The lorebook file of \"" + request.text("name") + "\" is not valid JSON");
            }
            // Re-laid out token by token: the frontend gets the stored numbers exactly as written.
            return Reply.rawJson(JsJson.relayout(text.getBytes(StandardCharsets.UTF_8), false));
        }));
        router.post("/api/worldinfo/list").handler(routes.blocking(request ->
                Reply.json(books.list(request.user().handle()))));
        router.post("/api/worldinfo/edit").handler(routes.blocking(request -> {
            if (!Js.truthy(request.body().get("name"))) {
                throw Refusal.badRequest(WorldInfoStore.NO_NAME);
            }
            books.save(request.user().handle(), request.text("name"), request.body().get("data"));
            return Reply.json(JsJson.object().put("ok", true));
        }));
        router.post("/api/worldinfo/delete").handler(routes.blocking(request -> {
            books.delete(request.user().handle(), request.text("name"));
            return Reply.ok();
        }));
        router.post("/api/worldinfo/import").handler(routes.blocking(request -> {
            FileUpload upload = request.upload();
            if (upload == null) {
                throw Refusal.badRequest("No lorebook file uploaded");
            }
            String name = books.importBook(request.user().handle(), FileNames.uploadName(upload.fileName()),
                    content(request, upload));
            return Reply.json(JsJson.object().put("name", name));
        }));
    }

    /** The frontend's conversion when it sent one, else the file's text (invalid UTF-8 replaced, as Node reads it). */
    private static String content(Request request, FileUpload upload) throws java.io.IOException {
        String converted = request.formField("convertedData");
        if (converted != null && !converted.isEmpty()) {
            return converted;
        }
        return new String(Files.readAllBytes(Path.of(upload.uploadedFileName())), StandardCharsets.UTF_8);
    }
}

package tankard.character;

import io.vertx.ext.web.FileUpload;
import io.vertx.ext.web.Router;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;
import tankard.json.JsJson;
import tankard.util.SafeZip;

import java.nio.file.Path;

/**
 * {@code POST /api/characters/import} (ST: src/endpoints/characters.js, /import). The frontend imports many files one
 * request each; every failure answers {@code {"error": true, "message": …}} (the frontend checks {@code error}) with
 * 400 for bad input, so a bulk import reports each file on its own.
 */
public record CharacterImportFeature(CardImporter importer) implements Feature {
    private static final Logger LOG = LoggerFactory.getLogger(CharacterImportFeature.class);

    @Override
    public void mount(Router router, Routes routes) {
        router.post("/api/characters/import").handler(routes.blocking(request -> {
            FileUpload file = request.upload();
            if (file == null) {
                return failure("No file uploaded");
            }
            try {
                String preserved = CardImporter.preservedName(request.formField("preserved_name"));
                CardImporter.Upload upload = new CardImporter.Upload(Path.of(file.uploadedFileName()),
                        request.formField("file_type"), preserved, request.formField("user_name"));
                String name = importer.importCard(request.user().handle(), upload);
                return Reply.json(JsJson.object().put("file_name", name));
            } catch (CardFormatException | SafeZip.BadZipException e) {
                LOG.warn("Could not import {}: {}", file.fileName(), e.getMessage());
                return failure(file.fileName() + ": " + e.getMessage());
            }
        }));
    }

    private static Reply failure(String message) {
        return Reply.json(400, JsJson.object().put("error", true).put("message", message));
    }
}

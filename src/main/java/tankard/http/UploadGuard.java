package tankard.http;

import tankard.core.Refusal;
import io.vertx.core.Handler;
import io.vertx.ext.web.FileUpload;
import io.vertx.ext.web.RoutingContext;

/**
 * ST's multipart rule (src/server-main.js, {@code multer(…).single('avatar')}): one file, in the field
 * {@code avatar}. File parts with an empty file name (a form's empty file input) are ignored; anything else is
 * refused before a handler sees it.
 */
final class UploadGuard implements Handler<RoutingContext> {
    @Override
    public void handle(RoutingContext ctx) {
        long files = 0;
        for (FileUpload upload : ctx.fileUploads()) {
            if (upload.fileName() == null || upload.fileName().isEmpty()) {
                continue;
            }
            if (!Request.UPLOAD_FIELD.equals(upload.name())) {
                ctx.fail(Refusal.badRequest("Unexpected file field '" + upload.name() + "'; upload the file as 'avatar'"));
                return;
            }
            files++;
        }
        if (files > 1) {
            ctx.fail(Refusal.badRequest("Only one file can be uploaded per request"));
            return;
        }
        ctx.next();
    }
}

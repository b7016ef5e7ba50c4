package tankard.chat;

import io.vertx.ext.web.Router;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;

/** The chat backup endpoints {@code /api/backups/chat/*} (src/endpoints/backups.js). */
public record ChatBackupFeature(ChatBackupFiles backups) implements Feature {
    @Override
    public void mount(Router router, Routes routes) {
        router.post("/api/backups/chat/get").handler(routes.blocking(request ->
                Reply.json(backups.list(request.user().handle()))));
        router.post("/api/backups/chat/delete").handler(routes.blocking(request -> {
            backups.delete(request.user().handle(), ChatBackupFiles.backupName(request.body()));
            return Reply.ok(); // ST's sendStatus(200): "OK" as text
        }));
        router.post("/api/backups/chat/download").handler(routes.blocking(request -> {
            ChatBackupFiles.Download backup = backups.download(request.user().handle(),
                    ChatBackupFiles.backupName(request.body()));
            return Reply.download(backup.name(), backup.size(), backup.modifiedMs(), backup::writeTo);
        }));
    }
}

package tankard.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.ext.web.FileUpload;
import io.vertx.ext.web.Router;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.chat.format.ChatHeader;
import tankard.core.Refusal;
import tankard.http.FailureHandler;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Request;
import tankard.http.Routes;
import tankard.json.Js;
import tankard.json.JsJson;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Set;

/**
 * The chat endpoints {@code /api/chats/*} and the group chat ones {@code /api/chats/group/*} (src/endpoints/chats.js;
 * the recent chats are RecentChatsFeature's), and Tankard's windowed reads of a chat, page by page from its end,
 * and saves of a new end from any message, {@code /api/tankard/chats/tail[/save]} (ChatWindow).
 */
public record ChatFeature(ChatService chats, ChatImporter importer, ChatFiles files, ChatSearch search, ChatExport export) implements Feature {
    private static final Logger LOG = LoggerFactory.getLogger(ChatFeature.class);
    private static final String SAVE = "/api/chats/save";
    private static final String GROUP_SAVE = "/api/chats/group/save";
    private static final String JSON = "application/json; charset=utf-8";

    @Override
    public void mount(Router router, Routes routes) {
        router.post("/api/chats/get").handler(routes.blocking(request -> {
            // String(avatar_url) as ST and the save name the folder, so a number reads the folder it saved to
            JsonNode avatar = request.body().get("avatar_url");
            if (Js.isUndefined(avatar) || avatar.isNull() || avatar.isContainerNode()) {
                throw Refusal.badRequest("Missing avatar_url");
            }
            return reply(chats.get(request.user().handle(), Js.string(avatar), truthyText(request, "file_name")));
        }));
        router.post(SAVE).handler(routes.streamed((request, json) -> {
            chats.save(request.user().handle(), json);
            return Reply.json(JsJson.object().put("ok", true));
        }));
        router.post("/api/chats/group/get").handler(routes.blocking(request -> {
            String id = truthyText(request, "id");
            if (id == null) {
                throw Refusal.badRequest("Missing group chat id");
            }
            return reply(chats.getGroup(request.user().handle(), id));
        }));
        router.post("/api/tankard/chats/tail").handler(routes.blocking(request -> {
            ChatRef chat = ChatRef.of(request.body());
            int count = ChatWindow.count(request.body());
            return Reply.rawJson(json(chats.tail(request.user().handle(), chat, count, ChatWindow.before(request.body()))));
        }));
        router.post("/api/tankard/chats/tail/save").handler(routes.blocking(request -> {
            ChatWindow.Saved saved = chats.saveTail(request.user().handle(), ChatWindow.Save.of(request.body()));
            return Reply.json(JsJson.object().put("ok", true).set("cursor", saved.json()));
        }));
        router.post("/api/tankard/chats/metadata").handler(routes.blocking(request -> {
            ChatRef chat = ChatRef.of(request.body());
            if (!(request.body().get(ChatHeader.CHAT_METADATA) instanceof ObjectNode values)) {
                throw Refusal.badRequest("chat_metadata must be an object of the keys to set");
            }
            chats.saveMetadata(request.user().handle(), chat, values);
            return Reply.json(JsJson.object().put("ok", true));
        }));
        router.post(GROUP_SAVE).handler(routes.streamed((request, json) -> {
            chats.saveGroup(request.user().handle(), json);
            return Reply.json(JsJson.object().put("ok", true));
        }));
        mountImport(router, routes);
        mountFileOperations(router, routes);
    }

    /** {@code /api/chats/import}: ST's answers, {@code {"res": true, "fileNames": […]}} or {@code {"error": true}}. */
    private void mountImport(Router router, Routes routes) {
        router.post("/api/chats/import").handler(routes.blocking(request -> {
            FileUpload file = request.upload();
            ChatImporter.Upload upload = new ChatImporter.Upload(file == null ? null : Path.of(file.uploadedFileName()),
                    request.formField("file_type"), request.formField("avatar_url"),
                    request.formField("character_name"), request.formField("user_name"));
            try {
                ArrayNode fileNames = JsJson.array();
                importer.importChat(request.user().handle(), upload).forEach(fileNames::add);
                return Reply.json(JsJson.object().put("res", true).set("fileNames", fileNames));
            } catch (ChatImportException e) {
                LOG.warn("Could not import the chat {}: {}", file == null ? "" : file.fileName(), e.getMessage());
                return Reply.json(JsJson.object().put("error", true).put("message", e.getMessage()));
            }
        }));
    }

    /** Rename, delete, export, search and the group chat info, delete and import. */
    private void mountFileOperations(Router router, Routes routes) {
        router.post("/api/chats/rename").handler(routes.blocking(request -> {
            ChatFiles.Renamed renamed = files.rename(request.user().handle(), ChatFiles.Rename.of(request.body()));
            return Reply.json(renamed.ok() ? 200 : 400, renamed.body());
        }));
        router.post("/api/chats/delete").handler(routes.blocking(request -> {
            if (!files.delete(request.user().handle(), ChatRef.ofChatFile(request.body()))) {
                throw Refusal.badRequest("No such chat");
            }
            return Reply.json(JsJson.object().put("ok", true));
        }));
        router.post("/api/chats/export").handler(routes.blocking(request -> {
            try {
                ChatExport.Prepared prepared = export.prepare(request.user().handle(), ChatExport.Options.of(request.body()));
                return Reply.stream("application/json; charset=utf-8", prepared::writeTo);
            } catch (ChatExport.Failure failure) {
                return Reply.json(FailureHandler.status(failure), JsJson.object().put("message", failure.getMessage()));
            }
        }));
        router.post("/api/chats/search").handler(routes.blocking(request ->
                Reply.json(search.search(request.user().handle(), ChatSearch.Query.of(request.body())))));
        router.post("/api/chats/group/info").handler(routes.blocking(request ->
                Reply.json(files.groupInfo(request.user().handle(), ChatRef.groupOf(request.body())))));
        router.post("/api/chats/group/delete").handler(routes.blocking(request -> {
            if (!files.delete(request.user().handle(), ChatRef.groupOf(request.body()))) {
                throw Refusal.badRequest("No such group chat");
            }
            return Reply.json(JsJson.object().put("ok", true));
        }));
        router.post("/api/chats/group/import").handler(routes.blocking(request -> {
            FileUpload upload = request.upload();
            if (upload == null) {
                throw Refusal.badRequest("No file uploaded");
            }
            try {
                String id = files.groupImport(request.user().handle(), Path.of(upload.uploadedFileName()));
                return Reply.json(JsJson.object().put("res", id));
            } catch (IOException e) {
                LOG.error("Could not import a group chat", e);
                return Reply.json(JsJson.object().put("error", true)); // ST's answer to a failed import
            }
        }));
    }

    /** Chat saves can be hundreds of MB: their bodies are read as they arrive. */
    @Override
    public Set<String> streamedBodyPaths() {
        return Set.of(SAVE, GROUP_SAVE);
    }

    private static Reply reply(ChatService.ChatRead read) {
        return read.file() == null ? Reply.rawJson(read.json()) : Reply.stream(JSON, read.length(), read.file()::writeTo);
    }

    /**
     * The tail route's answer, {@code {header, messages, offsets, more, cursor}}, from the chat's own bytes
     * (see ChatWindow).
     */
    private static byte[] json(ChatTail tail) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes("{\"header\":".getBytes(StandardCharsets.UTF_8));
        out.writeBytes(tail.headerJson());
        out.writeBytes(",\"messages\":".getBytes(StandardCharsets.UTF_8));
        out.writeBytes(tail.messagesJson());
        StringBuilder offsets = new StringBuilder(",\"offsets\":[");
        for (int i = 0; i < tail.offsets().length; i++) {
            offsets.append(i > 0 ? "," : "").append(tail.offsets()[i]);
        }
        offsets.append("],\"more\":").append(tail.more());
        out.writeBytes(offsets.toString().getBytes(StandardCharsets.UTF_8));
        out.writeBytes((",\"cursor\":" + JsJson.compact(tail.cursor().json()) + "}").getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    /** {@code String(body[field])} when the member is truthy, else null (ST's {@code if (!body.x)} checks). */
    private static String truthyText(Request request, String field) {
        JsonNode value = request.body().get(field);
        return Js.truthy(value) ? Js.string(value) : null;
    }
}

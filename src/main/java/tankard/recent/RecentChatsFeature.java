package tankard.recent;

import io.vertx.ext.web.Router;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;

/** {@code /api/chats/recent}, the welcome screen's recent chats (RecentChats). */
public record RecentChatsFeature(RecentChats recent) implements Feature {
    @Override
    public void mount(Router router, Routes routes) {
        router.post("/api/chats/recent").handler(routes.blocking(request ->
                Reply.json(recent.list(request.user().handle(), RecentChats.Query.of(request.body())))));
    }
}

package tankard.system;

import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.http.Feature;
import tankard.http.Routes;

import java.util.Locale;
import java.util.Map;

/**
 * ST's old, pre-{@code /api} URLs, each a 308 to its replacement for any method and any path below it (ST:
 * src/server-startup.js, redirectDeprecatedEndpoints). The Location is ST's destination as written, its
 * {@code :folder} included; the body is Express' res.redirect text or HTML, as the Accept header prefers.
 */
public final class DeprecatedEndpointsFeature implements Feature {
    private static final Logger LOG = LoggerFactory.getLogger(DeprecatedEndpointsFeature.class);

    /** Old URL to new URL, in ST's order. */
    static final Map<String, String> REDIRECTS = orderedMap(
            "/createcharacter", "/api/characters/create",
            "/renamecharacter", "/api/characters/rename",
            "/editcharacter", "/api/characters/edit",
            "/editcharacterattribute", "/api/characters/edit-attribute",
            "/v2/editcharacterattribute", "/api/characters/merge-attributes",
            "/deletecharacter", "/api/characters/delete",
            "/getcharacters", "/api/characters/all",
            "/getonecharacter", "/api/characters/get",
            "/getallchatsofcharacter", "/api/characters/chats",
            "/importcharacter", "/api/characters/import",
            "/dupecharacter", "/api/characters/duplicate",
            "/exportcharacter", "/api/characters/export",
            "/savechat", "/api/chats/save",
            "/getchat", "/api/chats/get",
            "/renamechat", "/api/chats/rename",
            "/delchat", "/api/chats/delete",
            "/exportchat", "/api/chats/export",
            "/importgroupchat", "/api/chats/group/import",
            "/importchat", "/api/chats/import",
            "/getgroupchat", "/api/chats/group/get",
            "/deletegroupchat", "/api/chats/group/delete",
            "/savegroupchat", "/api/chats/group/save",
            "/getgroups", "/api/groups/all",
            "/creategroup", "/api/groups/create",
            "/editgroup", "/api/groups/edit",
            "/deletegroup", "/api/groups/delete",
            "/getworldinfo", "/api/worldinfo/get",
            "/deleteworldinfo", "/api/worldinfo/delete",
            "/importworldinfo", "/api/worldinfo/import",
            "/editworldinfo", "/api/worldinfo/edit",
            "/getstats", "/api/stats/get",
            "/recreatestats", "/api/stats/recreate",
            "/updatestats", "/api/stats/update",
            "/getbackgrounds", "/api/backgrounds/all",
            "/delbackground", "/api/backgrounds/delete",
            "/renamebackground", "/api/backgrounds/rename",
            "/downloadbackground", "/api/backgrounds/upload", // ST's old name: it uploads one
            "/savetheme", "/api/themes/save",
            "/getuseravatars", "/api/avatars/get",
            "/deleteuseravatar", "/api/avatars/delete",
            "/uploaduseravatar", "/api/avatars/upload",
            "/deletequickreply", "/api/quick-replies/delete",
            "/savequickreply", "/api/quick-replies/save",
            "/uploadimage", "/api/images/upload",
            "/listimgfiles/:folder", "/api/images/list/:folder",
            "/api/content/import", "/api/content/importURL",
            "/savemovingui", "/api/moving-ui/save",
            "/api/serpapi/search", "/api/search/serpapi",
            "/api/serpapi/visit", "/api/search/visit",
            "/api/serpapi/transcript", "/api/search/transcript");

    @Override
    public void mount(Router router, Routes routes) {
        // behind the login gate and the CSRF check, as in ST, where they come after both
        // the URL and any below it, as app.use matches (Vert.x's "/a/:p/*" needs something after :p, so both)
        REDIRECTS.forEach((from, to) -> {
            router.route(from).handler(ctx -> redirect(ctx, from, to));
            router.route(from + "/*").handler(ctx -> redirect(ctx, from, to));
        });
    }

    private static void redirect(RoutingContext ctx, String from, String to) {
        LOG.warn("API endpoint {} is deprecated; use {} instead", from, to);
        String text = "Permanent Redirect. Redirecting to " + to;
        String accept = ctx.request().getHeader(HttpHeaders.ACCEPT);
        double plain = quality(accept, "text/plain");
        double html = quality(accept, "text/html");
        var response = ctx.response().setStatusCode(308).putHeader(HttpHeaders.LOCATION, to)
                .putHeader(HttpHeaders.VARY, "Accept");
        if (plain > 0 && plain >= html) {
            response.putHeader(HttpHeaders.CONTENT_TYPE, "text/plain; charset=utf-8").end(text);
        } else if (html > 0) {
            response.putHeader(HttpHeaders.CONTENT_TYPE, "text/html; charset=utf-8")
                    .end("<p>" + text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                            .replace("\"", "&quot;").replace("'", "&#39;") + "</p>");
        } else {
            response.end();
        }
    }

    /** How much an Accept header wants a media type (Express' req.accepts): 1 when absent, 0 when refused. */
    static double quality(String accept, String type) {
        if (accept == null || accept.isBlank()) {
            return 1;
        }
        double best = 0;
        int bestSpecificity = -1;
        for (String range : accept.split(",")) {
            String[] parts = range.trim().split(";");
            String name = parts[0].trim().toLowerCase(Locale.ROOT);
            int specificity = name.equals(type) ? 2 : name.equals(type.substring(0, type.indexOf('/')) + "/*") ? 1
                    : name.equals("*/*") ? 0 : -1;
            if (specificity < bestSpecificity || specificity < 0) {
                continue;
            }
            double q = 1;
            for (int i = 1; i < parts.length; i++) {
                String param = parts[i].trim();
                if (param.startsWith("q=")) {
                    try {
                        q = Double.parseDouble(param.substring(2));
                    } catch (NumberFormatException e) {
                        q = 0;
                    }
                }
            }
            best = q;
            bestSpecificity = specificity;
        }
        return best;
    }

    private static Map<String, String> orderedMap(String... pairs) {
        Map<String, String> map = new java.util.LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put(pairs[i], pairs[i + 1]);
        }
        return java.util.Collections.unmodifiableMap(map);
    }
}

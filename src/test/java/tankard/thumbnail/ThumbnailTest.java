package tankard.thumbnail;

import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.testing.ServerTest;
import tankard.testing.TestImages;
import tankard.testing.TestServer;
import tankard.testing.TestServer.Client;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ThumbnailTest extends ServerTest {
    /** A 40x20 lossy WebP gradient, encoded with libwebp for this test. */
    private static final String WEBP_40X20 = "UklGRsAAAABXRUJQVlA4ILQAAACwBQCdASooABQAPi0QhkKhoQ1TAAwBYloAJ0yxvaPmH47cOYcX6XPABYMXH5KN2jcHL29j48AA"
            + "/v+AtI/LBKV+DmL2ahH37tX//7a54ilyuYtMqNvBsf+84e9X3U3/3e082P+qzjpoTw6xex1kB4GbQ4Ud9v4YU/q0N/73PxlorfS1vNyd"
            + "UGba6ivzWzBJKCRgpZBEIK92Rwq8Q8s6SbIRwdWzWNOwA+gAicA0asjC7rLgAAA=";


    private static final int GREEN = 0xff00ff00;

    private HttpResponse<Buffer> thumbnail(String type, String file) {
        return client.get("/thumbnail?type=" + type + "&file=" + file);
    }

    private static BufferedImage image(HttpResponse<Buffer> r) {
        assertEquals(200, r.statusCode());
        return TestImages.decode(r.body().getBytes());
    }

    @Test
    void avatarFromPngIsCoverCroppedToTheConfiguredSizeAsJpeg() throws IOException {
        start(null);
        put("characters/Alice.png", TestImages.image("png", 300, 200));
        HttpResponse<Buffer> r = thumbnail("avatar", "Alice.png");
        BufferedImage thumb = image(r);
        assertEquals(96, thumb.getWidth());
        assertEquals(144, thumb.getHeight());
        // Stored under the original name, JPEG inside, served with the name's type.
        byte[] cached = Files.readAllBytes(user("thumbnails/avatar/Alice.png"));
        assertTrue(TestImages.isJpeg(cached));
        assertArrayEquals(cached, r.body().getBytes());
        assertEquals("image/png", r.getHeader("Content-Type"));
        // The centre of a red|blue image cropped to a narrow portrait keeps both halves.
        assertTrue(isRed(thumb.getRGB(5, 72)));
        assertTrue(isBlue(thumb.getRGB(90, 72)));
    }

    @Test
    void personaFromJpegHasTheConfiguredSize() throws IOException {
        start("thumbnails:\n  dimensions:\n    persona: [64, 64]\n");
        put("User Avatars/me.jpg", TestImages.image("jpeg", 500, 800));
        BufferedImage thumb = image(thumbnail("persona", "me.jpg"));
        assertEquals(64, thumb.getWidth());
        assertEquals(64, thumb.getHeight());
        assertTrue(Files.isRegularFile(user("thumbnails/persona/me.jpg")));
    }

    @Test
    void webpIsDecoded() throws IOException {
        start(null);
        put("backgrounds/grad.webp", Base64.getDecoder().decode(WEBP_40X20));
        BufferedImage thumb = image(thumbnail("bg", "grad.webp"));
        // 40:20 at 160*90 pixels: round(sqrt(14400*2)) x round(sqrt(14400/2)).
        assertEquals(170, thumb.getWidth());
        assertEquals(85, thumb.getHeight());
    }

    @Test
    void backgroundsKeepTheirAspectRatioAtTheConfiguredArea() throws IOException {
        start(null);
        put("backgrounds/wide.png", TestImages.image("png", 1600, 900));
        put("backgrounds/square.jpg", TestImages.image("jpeg", 1000, 1000));
        put("backgrounds/strip.png", TestImages.image("png", 2000, 500));
        assertSize(image(thumbnail("bg", "wide.png")), 160, 90);
        assertSize(image(thumbnail("bg", "square.jpg")), 120, 120);
        assertSize(image(thumbnail("bg", "strip.png")), 240, 60);
    }

    @Test
    void theCachedFileIsServedAsItIsWhileItsOriginalIsUnchanged() throws IOException {
        start(null);
        put("characters/Bob.png", TestImages.image("png", 100, 100));
        image(thumbnail("avatar", "Bob.png"));
        Path cached = user("thumbnails/avatar/Bob.png");
        FileTime originalTime = Files.getLastModifiedTime(cached); // a thumbnail carries its original's time
        byte[] marker = TestImages.image("png", 7, 3);
        Files.write(cached, marker);
        Files.setLastModifiedTime(cached, originalTime);
        HttpResponse<Buffer> again = thumbnail("avatar", "Bob.png");
        assertArrayEquals(marker, again.body().getBytes());
        assertTrue(again.getHeader("ETag").startsWith("W/\""));
    }

    @Test
    void aThumbnailIsMadeAgainWhenItsOriginalChanged() throws IOException {
        start(null);
        put("backgrounds/sky.png", TestImages.image("png", 320, 180));
        put("User Avatars/me.png", TestImages.image("png", 50, 50));
        put("characters/Eve.png", TestImages.image("png", 300, 200));
        assertSize(image(thumbnail("bg", "sky.png")), 160, 90);
        byte[] me = thumbnail("persona", "me.png").body().getBytes();
        byte[] eve = thumbnail("avatar", "Eve.png").body().getBytes();
        // Changed through the stores, as another node would change them: no invalidation reaches this node's cache.
        put("backgrounds/sky.png", TestImages.image("png", 200, 200));
        server.files().setModified("backgrounds/sky.png", server.files().modifiedMs("backgrounds/sky.png") + 5000);
        assertSize(image(thumbnail("bg", "sky.png")), 120, 120);
        put("User Avatars/me.png", TestImages.argbPng(2, 2, GREEN, GREEN, GREEN, GREEN));
        server.files().setModified("User Avatars/me.png", server.files().modifiedMs("User Avatars/me.png") + 5000);
        assertFalse(Arrays.equals(me, thumbnail("persona", "me.png").body().getBytes()), "not the stale thumbnail");
        put("characters/Eve.png", TestImages.image("png", 200, 300));
        server.files().setModified("characters/Eve.png", server.files().modifiedMs("characters/Eve.png") + 5000);
        HttpResponse<Buffer> remade = thumbnail("avatar", "Eve.png");
        assertFalse(Arrays.equals(eve, remade.body().getBytes()));
        assertArrayEquals(Files.readAllBytes(user("thumbnails/avatar/Eve.png")), remade.body().getBytes());
    }

    @Test
    void aThumbnailOutlivesItsDeletedOriginalAsInSt() throws IOException {
        start(null);
        put("backgrounds/old.png", TestImages.image("png", 320, 180));
        byte[] thumb = thumbnail("bg", "old.png").body().getBytes();
        server.files().delete("backgrounds/old.png");
        assertArrayEquals(thumb, thumbnail("bg", "old.png").body().getBytes());
    }

    @Test
    void invalidateDeletesTheCachedThumbnail() throws IOException {
        start(null);
        put("backgrounds/sky.png", TestImages.image("png", 320, 180));
        image(thumbnail("bg", "sky.png"));
        Path cached = user("thumbnails/bg/sky.png");
        assertTrue(Files.exists(cached));
        Thumbnails.invalidate(server.dataRoot, server.userDir().getFileName().toString(), ThumbnailType.BG, "sky.png");
        assertFalse(Files.exists(cached));
        // Nothing to delete is fine, and an empty name never touches the folder itself.
        Thumbnails.invalidate(server.dataRoot, server.userDir().getFileName().toString(), ThumbnailType.BG, "sky.png");
        Thumbnails.invalidate(server.dataRoot, server.userDir().getFileName().toString(), ThumbnailType.BG, "");
        assertTrue(Files.isDirectory(user("thumbnails/bg")));
    }

    @Test
    void gifsAreServedAsOriginals() throws IOException {
        start(null);
        byte[] gif = TestImages.image("gif", 300, 300);
        put("characters/anim.gif", gif);
        HttpResponse<Buffer> r = thumbnail("avatar", "anim.gif");
        assertArrayEquals(gif, r.body().getBytes());
        assertEquals("image/gif", r.getHeader("Content-Type"));
        assertFalse(Files.exists(user("thumbnails/avatar/anim.gif")));
    }

    @Test
    void animatedPngAndWebpAndVideosAreServedAsOriginals() throws IOException {
        start(null);
        byte[] apng = TestImages.withChunkAfterHeader(TestImages.image("png", 200, 200), "acTL");
        put("backgrounds/moving.png", apng);
        assertArrayEquals(apng, thumbnail("bg", "moving.png").body().getBytes());

        byte[] animatedWebp = TestImages.animatedWebpHead(300, 200);
        put("backgrounds/moving.webp", animatedWebp);
        assertArrayEquals(animatedWebp, thumbnail("bg", "moving.webp").body().getBytes());

        byte[] video = "not really a video".getBytes(StandardCharsets.UTF_8);
        put("backgrounds/clip.mp4", video);
        assertArrayEquals(video, thumbnail("bg", "clip.mp4").body().getBytes());
        assertArrayEquals(video, client.get("/thumbnail?type=bg&file=clip.mp4&animated=true").body().getBytes());
        try (Stream<Path> cache = Files.list(user("thumbnails/bg"))) {
            assertEquals(0, cache.count());
        }
    }

    @Test
    void pngFormatWritesPngThumbnails() throws IOException {
        start("thumbnails:\n  format: png\n");
        put("characters/Carol.png", TestImages.image("png", 400, 600));
        HttpResponse<Buffer> r = thumbnail("avatar", "Carol.png");
        assertTrue(TestImages.isPng(r.body().getBytes()));
        assertSize(image(r), 96, 144);
    }

    @Test
    void undecodableImagesAreServedAsOriginals() throws IOException {
        start(null);
        byte[] junk = "this is not a png at all".getBytes(StandardCharsets.UTF_8);
        put("characters/broken.png", junk);
        assertArrayEquals(junk, thumbnail("avatar", "broken.png").body().getBytes());
        byte[] truncated = java.util.Arrays.copyOf(TestImages.image("png", 300, 300), 60);
        put("characters/cut.png", truncated);
        assertArrayEquals(truncated, thumbnail("avatar", "cut.png").body().getBytes());
        assertFalse(Files.exists(user("thumbnails/avatar/broken.png")));
        assertFalse(Files.exists(user("thumbnails/avatar/cut.png")));
    }

    @Test
    void disabledThumbnailsServeOriginals() throws IOException {
        start("thumbnails:\n  enabled: false\n");
        byte[] png = TestImages.image("png", 300, 200);
        put("characters/Dan.png", png);
        assertArrayEquals(png, thumbnail("avatar", "Dan.png").body().getBytes());
        assertFalse(Files.exists(user("thumbnails/avatar/Dan.png")));
        assertEquals(404, thumbnail("avatar", "none.png").statusCode());
    }

    @Test
    void badRequestsAreRefused() throws IOException {
        start(null);
        Files.writeString(user("secrets.json"), "SECRET");
        assertEquals(400, client.get("/thumbnail?type=icon&file=a.png").statusCode());
        assertEquals(400, client.get("/thumbnail?file=a.png").statusCode());
        assertEquals(400, client.get("/thumbnail?type=bg").statusCode());
        assertEquals(400, client.get("/thumbnail?type=bg&type=avatar&file=a.png").statusCode());
        for (String name : new String[]{"..%2Fsecrets.json", "a%2Fb.png", "..", "x%3A.png", "%2Fetc%2Fpasswd"}) {
            HttpResponse<Buffer> r = client.get("/thumbnail?type=avatar&file=" + name);
            assertEquals(403, r.statusCode(), name);
            assertFalse(r.bodyAsString().contains("SECRET"));
        }
        HttpResponse<Buffer> missing = thumbnail("persona", "ghost.png");
        assertEquals(404, missing.statusCode());
        assertEquals("Not Found", missing.bodyAsString());
        assertEquals(404, thumbnail("persona", "").statusCode());
    }

    @Test
    void firefoxGetsNoStoreForThumbnails() throws IOException {
        start(null);
        put("User Avatars/p.png", TestImages.image("png", 50, 50));
        var request = client.request(io.vertx.core.http.HttpMethod.GET, "/thumbnail?type=persona&file=p.png")
                .putHeader("User-Agent", "Mozilla/5.0 (Windows NT 10.0; rv:128.0) Gecko/20100101 Firefox/128.0");
        assertEquals("must-understand, no-store", Client.send(request, null).getHeader("Cache-Control"));
    }

    @Test
    void concurrentRequestsNeverSeeAPartialThumbnail() throws IOException {
        start(null);
        put("backgrounds/big.png", TestImages.image("png", 2400, 1350));
        List<CompletableFuture<HttpResponse<Buffer>>> requests = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            requests.add(client.request(io.vertx.core.http.HttpMethod.GET, "/thumbnail?type=bg&file=big.png")
                    .send().toCompletionStage().toCompletableFuture());
        }
        for (var request : requests) {
            assertSize(image(TestServer.await(request)), 160, 90);
        }
        try (Stream<Path> cache = Files.list(user("thumbnails/bg"))) {
            assertEquals(List.of("big.png"), cache.map(p -> p.getFileName().toString()).toList());
        }
    }

    private static void assertSize(BufferedImage image, int width, int height) {
        assertEquals(width, image.getWidth(), "width");
        assertEquals(height, image.getHeight(), "height");
    }

    private static boolean isRed(int rgb) {
        return ((rgb >> 16) & 0xff) > 200 && (rgb & 0xff) < 60;
    }

    private static boolean isBlue(int rgb) {
        return (rgb & 0xff) > 200 && ((rgb >> 16) & 0xff) < 60;
    }
}

package tankard.chat;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.testing.ServerTest;
import tankard.testing.TestServer;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Chat get and save as streams: ST's bytes, large and compressed bodies, and the guards against losing lines. */
class ChatStreamingHttpTest extends ServerTest {
    /** A request whose chat holds JSON no browser sends; FILE and GET are what ST 1.18.0 (Node 22) makes of it. */
    private static final String TRICKY = "{\"file_name\":\"t\",\"chat\":[{\"chat_metadata\":{\"integrity\":\"i1\"},\"user_name\":\"unused\"},{\"mes\":\"\\u00e9 \\ud83d\\ude00 \\ud800 \\/ \\u2028 \\u001F\",\"n\":[1.0,-0,1e21,1E-7,0.1e1,9007199254740993,5e-324,1e400,123456789012345678901234],\"x\":1,\"a\":{\"__proto__\":{\"k\":2},\"b\":[ {} , [ ] ]},\"x\":2,\"7\":\"seven\",\"10\":\"ten\"},null,0,\"\",true,\"s\",[{\"deep\":[[[{\"z\":-0.0}]]]}]],\"avatar_url\":\"Tricky.png\"}";
    private static final String TRICKY_FILE = "{\"chat_metadata\":{\"integrity\":\"i1\"},\"user_name\":\"unused\"}\n{\"7\":\"seven\",\"10\":\"ten\",\"mes\":\"\u00e9 \ud83d\ude00 \\ud800 / \u2028 \\u001f\",\"n\":[1,0,1e+21,1e-7,1,9007199254740992,5e-324,null,1.2345678901234569e+23],\"x\":2,\"a\":{\"__proto__\":{\"k\":2},\"b\":[{},[]]}}\nnull\n0\n\"\"\ntrue\n\"s\"\n[{\"deep\":[[[{\"z\":0}]]]}]";
    private static final String TRICKY_GET = "[{\"chat_metadata\":{\"integrity\":\"i1\"},\"user_name\":\"unused\"},{\"7\":\"seven\",\"10\":\"ten\",\"mes\":\"\u00e9 \ud83d\ude00 \\ud800 / \u2028 \\u001f\",\"n\":[1,0,1e+21,1e-7,1,9007199254740992,5e-324,null,1.2345678901234569e+23],\"x\":2,\"a\":{\"__proto__\":{\"k\":2},\"b\":[{},[]]}},true,\"s\",[{\"deep\":[[[{\"z\":0}]]]}]]";

    private static final String GET = "{\"avatar_url\":\"Tricky.png\",\"file_name\":\"t\"}";

    private static String chat(String relative) {
        return "chats/" + relative;
    }

    private List<String> backupNames() {
        return server.files().backupNames("").stream().sorted().toList();
    }

    /** No draft or temp file left anywhere in the user's folder. */
    private void assertNoLeftovers() throws IOException {
        try (Stream<Path> files = Files.walk(server.userDir())) {
            List<String> left = files.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith(".tankard-draft") || n.matches(".*\\.jsonl\\.\\d+")).toList();
            assertEquals(List.of(), left);
        }
    }

    private static String messages(int count, int size, String integrity) {
        StringBuilder chat = new StringBuilder("{\"chat_metadata\":{\"integrity\":\"" + integrity + "\"},\"user_name\":\"unused\"}");
        for (int i = 0; i < count; i++) {
            chat.append(",{\"name\":\"N\",\"is_user\":").append(i % 2 == 0).append(",\"mes\":\"")
                    .append("m").append(i).append(" ").append("é".repeat(size)).append("\",\"extra\":{\"n\":").append(i).append("}}");
        }
        return chat.toString();
    }

    private static String saveBody(String name, String elements) {
        return "{\"ch_name\":\"Bramble\",\"file_name\":\"" + name + "\",\"chat\":[" + elements + "],\"avatar_url\":\"Bramble.png\",\"force\":false}";
    }

    @Test
    void savedBytesAndTheGetAnswerAreStsForJsonNoBrowserSends() throws IOException {
        start("backups:\n  chat:\n    enabled: false\n");
        assertEquals(200, client.post("/api/chats/save", TRICKY).statusCode());
        assertArrayEquals(TRICKY_FILE.getBytes(StandardCharsets.UTF_8), documentBytes(chat("Tricky/t.jsonl")));
        HttpResponse<Buffer> get = client.post("/api/chats/get", GET);
        assertEquals(200, get.statusCode());
        assertEquals("application/json; charset=utf-8", get.getHeader("Content-Type"));
        assertArrayEquals(TRICKY_GET.getBytes(StandardCharsets.UTF_8), get.body().getBytes());
    }

    @Test
    void invalidUtf8IsStoredAndServedAsReplacementCharactersLikeNode() throws IOException {
        start("backups:\n  chat:\n    enabled: false\n");
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes("{\"avatar_url\":\"Tricky.png\",\"file_name\":\"t\",\"chat\":[{\"a\":\"x".getBytes(StandardCharsets.UTF_8));
        body.writeBytes(new byte[]{(byte) 0xC3, '"', ',', '"', 'b', '"', ':', '"', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"', '}', ']', '}'});
        HttpResponse<Buffer> save = TestServer.Client.send(client.request(HttpMethod.POST, "/api/chats/save")
                .putHeader("Content-Type", "application/json"), Buffer.buffer(body.toByteArray()));
        assertEquals(200, save.statusCode());
        assertEquals("{\"a\":\"x\ufffd\",\"b\":\"\ufffd\ufffd\ufffd\"}", document(chat("Tricky/t.jsonl")));

        byte[] file = {'{', '"', 'm', '"', ':', '"', (byte) 0xF0, (byte) 0x9F, '"', '}', '\n', (byte) 0xEF, (byte) 0xBB, (byte) 0xBF, '{', '}'};
        put(chat("Tricky/t.jsonl"), file);
        assertEquals("[{\"m\":\"\ufffd\"}]", client.post("/api/chats/get", GET).bodyAsString(), "a BOM makes a line unparsable, as in ST");
    }

    @Test
    void aChatChangedBehindTheServersBackIsReadAfresh() throws IOException {
        start("backups:\n  chat:\n    enabled: false\n");
        String get = "{\"avatar_url\":\"Bramble.png\",\"file_name\":\"c\"}";
        assertEquals(200, client.post("/api/chats/save", saveBody("c", "{\"chat_metadata\":{}},{\"mes\":\"a\"}")).statusCode());
        assertEquals("[{\"chat_metadata\":{}},{\"mes\":\"a\"}]", client.post("/api/chats/get", get).bodyAsString());
        put("chats/Bramble/c.jsonl", "{\"chat_metadata\":{}}\n{\"mes\" : \"a\"}\n{x\n\n".getBytes(StandardCharsets.UTF_8));
        assertEquals("[{\"chat_metadata\":{}},{\"mes\":\"a\"}]", client.post("/api/chats/get", get).bodyAsString());
        assertEquals("[{\"chat_metadata\":{}},{\"mes\":\"a\"}]", client.post("/api/chats/get", get).bodyAsString(), "read again");
    }

    @Test
    void gzipBodiesAreInflated() throws IOException {
        start("backups:\n  chat:\n    enabled: false\n");
        String chat = messages(50, 100, "g");
        ByteArrayOutputStream zipped = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(zipped)) {
            gzip.write(saveBody("zipped", chat).getBytes(StandardCharsets.UTF_8));
        }
        HttpResponse<Buffer> save = TestServer.Client.send(client.request(HttpMethod.POST, "/api/chats/save")
                .putHeader("Content-Type", "application/json").putHeader("Content-Encoding", "gzip"), Buffer.buffer(zipped.toByteArray()));
        assertEquals(200, save.statusCode(), save.bodyAsString());
        assertEquals(chat.replace("},{\"name\"", "}\n{\"name\""), document(chat("Bramble/zipped.jsonl")));
    }

    @Test
    void aClientThatExpectsContinueGetsIt() throws Exception {
        start("backups:\n  chat:\n    enabled: false\n");
        HttpRequest save = HttpRequest.newBuilder(URI.create(server.url("/api/chats/save"))).expectContinue(true)
                .version(HttpClient.Version.HTTP_1_1)
                .timeout(Duration.ofSeconds(20)).header("Content-Type", "application/json")
                .header("X-CSRF-Token", client.csrfToken()).header("Cookie", cookies())
                .POST(HttpRequest.BodyPublishers.ofString(saveBody("c", messages(2, 3, "i")))).build();
        assertEquals(200, HttpClient.newHttpClient().send(save, java.net.http.HttpResponse.BodyHandlers.ofString()).statusCode());
        assertTrue(document(chat("Bramble/c.jsonl")).contains("m1"));
    }

    @Test
    void aChatOfSeveralMegabytesStreamsBothWays() throws IOException {
        start("backups:\n  chat:\n    throttleInterval: 0\n");
        String chat = messages(3000, 700, "big"); // about 4.5 MB
        assertEquals(200, client.post("/api/chats/save", saveBody("big", chat)).statusCode());
        String lines = chat.replace("},{\"name\"", "}\n{\"name\"");
        assertEquals(lines, document(chat("Bramble/big.jsonl")));
        HttpResponse<Buffer> get = client.post("/api/chats/get", "{\"avatar_url\":\"Bramble.png\",\"file_name\":\"big\"}");
        assertEquals("[" + chat + "]", get.bodyAsString());
        List<String> backups = backupNames();
        assertEquals(1, backups.size());
        assertEquals(lines, document("backups/" + backups.get(0)), "the backup is the saved chat");
        assertNoLeftovers();
    }

    @Test
    void elementsOfEverySizeAndSpellingAreStoredAsStPrintsThem() throws IOException {
        start("backups:\n  chat:\n    enabled: false\n");
        // sizes around the reader's 64 KB buffer and the 32 KB it keeps ahead; every third element spelled as no
        // browser sends it (a space, a number as 1.0), which must be printed again
        int[] sizes = {10, 40_000, 3, 100_000, 20_000, 33_000, 5, 70_000, 1, 65_536, 12, 31_000, 90_000, 7};
        StringBuilder body = new StringBuilder("{\"chat_metadata\":{\"integrity\":\"x\"}}");
        StringBuilder file = new StringBuilder("{\"chat_metadata\":{\"integrity\":\"x\"}}");
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < sizes.length; i++) {
                String mes = "é\\n\\\"".repeat(sizes[i] / 8 + 1) + "z".repeat(i + round);
                boolean respelled = (i + round) % 3 == 0;
                body.append(",{\"mes\":").append(respelled ? " " : "").append('"').append(mes).append("\",\"n\":")
                        .append(respelled ? "1.0" : "1").append('}');
                file.append("\n{\"mes\":\"").append(mes).append("\",\"n\":1}");
            }
        }
        assertEquals(200, client.post("/api/chats/save", saveBody("sizes", body.toString())).statusCode());
        assertEquals(file.toString(), document(chat("Bramble/sizes.jsonl")));
    }

    @Test
    void aSaveThatWouldDropUnreadableLinesKeepsTheOldFileFirst() throws IOException {
        start("backups:\n  chat:\n    enabled: false\n");
        String damaged = "{\"chat_metadata\":{}}\n{\"mes\":\"one\"}\n{\"mes\":\"tw\n{\"mes\":\"three\"}";
        put("chats/Bramble/c.jsonl", damaged.getBytes(StandardCharsets.UTF_8));
        assertEquals("[{\"chat_metadata\":{}},{\"mes\":\"one\"},{\"mes\":\"three\"}]",
                client.post("/api/chats/get", "{\"avatar_url\":\"Bramble.png\",\"file_name\":\"c\"}").bodyAsString(),
                "the broken line is skipped, as ST does");
        assertEquals(200, client.post("/api/chats/save", saveBody("c", "{\"chat_metadata\":{}},{\"mes\":\"one\"},{\"mes\":\"three\"},{\"mes\":\"four\"}")).statusCode());
        List<String> kept = backupNames();
        assertEquals(1, kept.size(), "kept although backups are off");
        assertTrue(kept.get(0).matches("chat_bramble_\\d{8}-\\d{6}_replaced\\.jsonl"), kept.get(0));
        assertEquals(damaged, document("backups/" + kept.get(0)));

        assertEquals(200, client.post("/api/chats/save", saveBody("c", "{\"chat_metadata\":{}},{\"mes\":\"one\"},{\"mes\":\"five\"}")).statusCode());
        assertEquals(1, backupNames().size(), "a healthy chat replaced by a healthy chat keeps nothing extra");
    }

    @Test
    void aChatOfManyMessagesReplacedByOneIsKeptFirst() throws IOException {
        start("backups:\n  chat:\n    throttleInterval: 600000\n");
        assertEquals(200, client.post("/api/chats/save", saveBody("c", messages(5, 3, "i"))).statusCode());
        assertEquals(1, backupNames().size(), "the throttle's leading backup");
        String full = document(chat("Bramble/c.jsonl"));
        assertEquals(200, client.post("/api/chats/save", saveBody("c", messages(1, 3, "i"))).statusCode());
        List<String> names = backupNames();
        assertEquals(2, names.size(), "the throttle would have waited: " + names);
        String replaced = names.stream().filter(n -> n.endsWith("_replaced.jsonl")).findFirst().orElseThrow();
        assertEquals(full, document("backups/" + replaced));
    }

    @Test
    void concurrentSavesOfOneChatLeaveOneWholeSave() throws Exception {
        start("backups:\n  chat:\n    enabled: false\n");
        List<String> chats = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            chats.add(messages(200 + i, 300, "same"));
        }
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Integer>> saves = new ArrayList<>();
            for (String chat : chats) {
                saves.add(pool.submit(() -> client.post("/api/chats/save", saveBody("c", chat)).statusCode()));
            }
            for (Future<Integer> save : saves) {
                assertEquals(200, save.get());
            }
        } finally {
            pool.shutdown();
        }
        String stored = document(chat("Bramble/c.jsonl"));
        assertTrue(chats.stream().anyMatch(c -> c.replace("},{\"name\"", "}\n{\"name\"").equals(stored)), "one save, whole");
        assertNoLeftovers();
    }

    @Test
    void aClientThatGoesAwayMidSaveChangesNothing() throws Exception {
        start("backups:\n  chat:\n    enabled: false\n");
        assertEquals(200, client.post("/api/chats/save", saveBody("c", messages(3, 3, "i"))).statusCode());
        byte[] before = documentBytes(chat("Bramble/c.jsonl"));
        byte[] body = saveBody("c", messages(20_000, 100, "i")).getBytes(StandardCharsets.UTF_8);
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            OutputStream out = socket.getOutputStream();
            out.write(("POST /api/chats/save HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "X-CSRF-Token: " + client.csrfToken() + "\r\nCookie: " + cookies() + "\r\n"
                    + "Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.write(body, 0, body.length / 2);
            out.flush();
            Thread.sleep(300);
        }
        for (int i = 0; i < 50 && draftLeft(); i++) {
            Thread.sleep(100);
        }
        assertArrayEquals(before, documentBytes(chat("Bramble/c.jsonl")));
        assertNoLeftovers();
    }

    /** Whether an upload's draft is still in the chats folder (on files; PostgreSQL spools outside the data root). */
    private boolean draftLeft() throws IOException {
        if (!Files.isDirectory(user("chats"))) {
            return false;
        }
        try (Stream<Path> files = Files.list(user("chats"))) {
            return files.anyMatch(p -> p.getFileName().toString().startsWith(".tankard-draft"));
        }
    }

    private String cookies() {
        List<String> pairs = new ArrayList<>();
        client.session.cookieStore().get(false, "127.0.0.1", "/").forEach(c -> pairs.add(c.name() + "=" + c.value()));
        return String.join("; ", pairs);
    }

    @Test
    void badBodiesWriteNothing() throws IOException {
        start("backups:\n  chat:\n    enabled: false\n");
        assertEquals(200, client.post("/api/chats/save", saveBody("c", messages(3, 3, "i"))).statusCode());
        byte[] before = documentBytes(chat("Bramble/c.jsonl"));
        String valid = saveBody("c", messages(4, 3, "i"));
        for (String bad : List.of(valid.substring(0, valid.length() - 40), valid.replace("\"mes\":", "\"mes\" "),
                valid + "}", valid.replace(",{\"name\"", ",,{\"name\""), "\"just text\"", valid.replace("[", "[01,"))) {
            HttpResponse<Buffer> save = client.post("/api/chats/save", bad);
            assertEquals(400, save.statusCode(), bad);
            assertTrue(json(save).has("error"));
        }
        assertArrayEquals(before, documentBytes(chat("Bramble/c.jsonl")));
        assertNoLeftovers();
        assertEquals(400, client.post("/api/chats/save", "{\"file_name\":\"c\",\"chat\":[{}],\"avatar_url\":\"../x.png\"}").statusCode());
        assertEquals(400, client.post("/api/chats/group/save", "{\"chat\":[{}],\"id\":\"\"}").statusCode());
        assertEquals(200, client.post("/api/chats/group/save", "{\"chat\":[{}],\"id\":\"../../x\"}").statusCode());
        assertTrue(hasDocument("group chats/....x.jsonl"), "separators are removed, not followed");
        assertEquals("[{}]", client.post("/api/chats/group/get", "{\"id\":\"../../x\"}").bodyAsString());
        assertFalse(Files.exists(server.dataRoot.resolve("x.jsonl")));
        assertNoLeftovers();
    }

    @Test
    void saveIsRefusedOnIntegrityMismatchWithTheBodyStreamed() throws IOException {
        start("backups:\n  chat:\n    enabled: false\n");
        assertEquals(200, client.post("/api/chats/save", saveBody("c", messages(3, 3, "mine"))).statusCode());
        byte[] before = documentBytes(chat("Bramble/c.jsonl"));
        HttpResponse<Buffer> other = client.post("/api/chats/save", saveBody("c", messages(3000, 100, "theirs")));
        assertEquals(400, other.statusCode());
        assertEquals("{\"error\":\"integrity\"}", other.bodyAsString());
        assertArrayEquals(before, documentBytes(chat("Bramble/c.jsonl")));
        assertNoLeftovers();
        String forced = saveBody("c", messages(2, 3, "theirs")).replace("\"force\":false", "\"force\":true");
        assertEquals(200, client.post("/api/chats/save", forced).statusCode());
        assertTrue(document(chat("Bramble/c.jsonl")).contains("theirs"));
    }
}

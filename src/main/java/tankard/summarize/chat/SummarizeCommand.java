package tankard.summarize.chat;

import tankard.store.MemoryTicketStore;
import tankard.store.StripedLocks;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Vertx;
import tankard.backend.Completions;
import tankard.outbound.OutboundPolicy;
import tankard.outbound.ProviderOrigins;
import tankard.outbound.UpstreamClient;
import tankard.chat.ChatLocks;
import tankard.chat.ChatService;
import tankard.chat.FileChatStore;
import tankard.config.ConfigException;
import tankard.config.ConfigLoader;
import tankard.config.TankardConfig;
import tankard.content.DefaultContent;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.preset.PresetService;
import tankard.secrets.SecretStore;
import tankard.store.FileDocumentStore;
import tankard.tokenizer.TokenizerFiles;
import tankard.tokenizer.Tokenizers;
import tankard.util.Sanitize;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;

/**
 * {@code tankard summarize ...}: the summarizer of {@code POST /api/tankard/summarize} from the command line,
 * on the data root the server uses (config.yaml, {@code --dataRoot}...). Prints the summary; exit status 0 when
 * it was stored, 1 when it could not be made or stored, 2 for bad arguments. Its chat locks are its own: run it
 * on a chat nobody is saving meanwhile (a save that lands during the call makes it store nothing: 409).
 */
public final class SummarizeCommand {
    static final String USAGE = """
            Usage: tankard summarize --backend JSON|@FILE (--character AVATAR.png --chat NAME | --group-chat ID)
                                     [--user HANDLE] [--instruct NAME] [--prompt FOCUS] [--max-tokens N]
                                     [--exclude-last N] [--context-size N] [server options: --dataRoot DIR ...]
              --backend       the connection, as the body ST's frontend sends to a generate route, e.g.
                              '{"chat_completion_source":"openai","model":"gpt-4o"}' or
                              '{"api_type":"koboldcpp","api_server":"http://127.0.0.1:5001"}'; @FILE reads it from a file
              --instruct      text completions: an instruct template of the user's instruct/ folder
              --prompt        what the summary must keep above all
              --max-tokens    the summary's output limit (lowered to the model's own when known)
              --exclude-last  how many of the newest messages are left out (default 1)
            """;
    /** Our options and the request field each fills; the rest go to the server's config loader. */
    private static final Map<String, String> OPTIONS = Map.of("character", "avatar_url", "chat", "file_name",
            "group-chat", "id", "instruct", "instruct", "prompt", "prompt", "max-tokens", "max_tokens",
            "exclude-last", "exclude_last", "context-size", "context_size", "backend", "backend", "user", "user");

    private SummarizeCommand() {
    }

    /** Runs the command; the exit status. */
    public static int run(String[] args, Map<String, String> env, Path workDir, PrintStream out, PrintStream err) {
        ObjectNode body = JsJson.object();
        List<String> serverArgs = new ArrayList<>();
        String user = "default-user";
        TankardConfig config;
        try {
            for (int i = 0; i < args.length; i++) {
                String name = args[i].startsWith("--") ? args[i].substring(2) : null;
                String field = name == null ? null : OPTIONS.get(name);
                if (field == null) {
                    if (name != null && !ConfigLoader.knowsOption(name)) {
                        // Tankard's own command: a mistyped option is an error here, not skipped as the server does
                        throw new ConfigException("Unknown option --" + name);
                    }
                    serverArgs.add(args[i]);
                    continue;
                }
                if (i + 1 >= args.length) {
                    throw new ConfigException("Option --" + name + " needs a value");
                }
                String value = args[++i];
                switch (field) {
                    case "user" -> user = value;
                    case "backend" -> body.set("backend", backend(value, workDir));
                    case "max_tokens", "exclude_last", "context_size" -> body.set(field, number(name, value));
                    default -> body.put(field, value);
                }
            }
            if (!body.has("backend")) {
                throw new ConfigException("--backend is required");
            }
            if (!Sanitize.isSafeSegment(user)) {
                throw new ConfigException("Invalid --user " + user);
            }
            config = ConfigLoader.load(serverArgs.toArray(String[]::new), env, workDir);
        } catch (ConfigException e) {
            err.println("tankard summarize: " + e.getMessage());
            err.print(USAGE);
            return 2;
        }
        String handle = user;
        if (!Files.isDirectory(config.dataRoot().resolve(handle))) {
            err.println("tankard summarize: no user " + handle + " in " + config.dataRoot());
            return 2;
        }
        Vertx vertx = Vertx.vertx();
        ScheduledExecutorService timer = new ScheduledThreadPoolExecutor(1);
        try {
            ChatSummarizer summarizer = summarizer(config, vertx, timer);
            PresetService presets = new PresetService(new FileDocumentStore(config.dataRoot()), DefaultContent.of(config));
            JsonNode answer = summarizer.summarize(handle, SummaryOptions.parse(body,
                    name -> presets.read(handle, "instruct", name), summarizer::knowsSource));
            out.println(answer.path("summary").asText());
            err.println("Stored on message " + answer.path("index").asInt() + " (" + answer.path("messages").asInt()
                    + " messages summarized" + (answer.path("fallback").asBoolean() ? ", part by part" : "") + ")");
            return 0;
        } catch (Refusal e) {
            err.println("tankard summarize: " + e.getMessage());
            return e.serverSide() ? 1 : 2;
        } catch (Exception e) {
            err.println("tankard summarize: " + e);
            return 1;
        } finally {
            timer.shutdown();
            vertx.close();
        }
    }

    /** The same services the server builds for the route, over the same data root. */
    private static ChatSummarizer summarizer(TankardConfig config, Vertx vertx, ScheduledExecutorService timer) {
        FileChatStore chats = new FileChatStore(config.dataRoot());
        ChatService chatService = new ChatService(config.backups(), chats, new ChatLocks(new StripedLocks(64)),
                new MemoryTicketStore(System::currentTimeMillis), timer, System::currentTimeMillis);
        UpstreamClient upstream = new UpstreamClient(vertx, new OutboundPolicy(config),
                new ProviderOrigins(config.backends().providerOrigins()));
        Completions completions = new Completions(config, new SecretStore(new FileDocumentStore(config.dataRoot()), config.allowKeysExposure()), upstream);
        return new ChatSummarizer(chatService, completions, new Tokenizers(TokenizerFiles.of(config)));
    }

    private static JsonNode backend(String value, Path workDir) {
        String json = value;
        if (value.startsWith("@")) {
            try {
                json = Files.readString(workDir.resolve(value.substring(1)));
            } catch (IOException e) {
                throw new ConfigException("Cannot read --backend " + value + ": " + e.getMessage());
            }
        }
        JsonNode parsed = JsJson.tryParse(json.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        if (parsed == null || !parsed.isObject()) {
            throw new ConfigException("--backend must be a JSON object (or @FILE holding one)");
        }
        return parsed;
    }

    private static JsonNode number(String name, String value) {
        try {
            return JsJson.tree(Integer.parseInt(value));
        } catch (NumberFormatException e) {
            throw new ConfigException("--" + name + " must be a whole number");
        }
    }
}

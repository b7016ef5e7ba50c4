package tankard.speech;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.config.TankardConfig;
import tankard.core.Refusal;
import tankard.outbound.UpstreamClient;
import tankard.summarize.onnx.HubDownloader;
import tankard.vector.local.LocalEmbeddings;
import tankard.vector.local.OnDemandModel;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Base64;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The local text-to-speech of ST's TTS extension (the SpeechT5 provider; ST: src/endpoints/speech.js, synthesize, and
 * src/transformers.js, the text-to-speech task): {@code {text, model, speaker}} → a WAV of 32-bit float samples. The
 * model is the body's {@code model}, else the one loaded, else {@code extensions.models.textToSpeech} (ST's default
 * when empty); one at a time, as ST's getPipeline keeps one pipeline a task and swaps it for another model. The
 * vocoder is always {@link #VOCODER}, as transformers.js's pipeline loads it, downloaded beside the model. Loaded when
 * first asked for (see {@link OnDemandModel}: 503 while it loads), texts run behind a queue of
 * {@code tankard.speech.synthesisQueueSize}.
 */
public final class LocalSpeechSynthesizer implements AutoCloseable {
    /** ST's default (src/transformers.js, the text-to-speech task). */
    public static final String DEFAULT_MODEL = "Xenova/speecht5_tts";
    /** transformers.js's TextToAudioPipeline.DEFAULT_VOCODER_ID. */
    public static final String VOCODER = "Xenova/speecht5_hifigan";
    private static final String TASK = "text-to-speech";
    private static final String KEY = "extensions.models.textToSpeech";

    private final Path models;
    private final boolean autoDownload;
    private final int queue;
    private final String configured;
    private final HubDownloader hub;
    private final HubDownloader vocoderHub;
    private String name;
    private OnDemandModel<SpeechModel> model;
    private boolean closed;

    public LocalSpeechSynthesizer(TankardConfig config, UpstreamClient downloader) {
        models = config.dataRoot().resolve("_models");
        autoDownload = config.models().autoDownload();
        queue = config.models().synthesisQueue();
        configured = config.models().textToSpeech().isEmpty() ? DEFAULT_MODEL : config.models().textToSpeech();
        hub = new HubDownloader(downloader, SpeechModel.FILES, "it is not a transformers.js SpeechT5 text-to-speech"
                + " model (an encoder, a merged decoder, tokenizer.json and preprocessor_config.json)");
        vocoderHub = new HubDownloader(downloader, SpeechModel.VOCODER_FILES, "it is not a transformers.js vocoder");
    }

    /**
     * The WAV of the body's {@code text} spoken with its {@code speaker}'s embeddings (base64 of float32 values, or a
     * data URL of them). A 400 {@link Refusal} for a missing text or speaker, or embeddings of a wrong size (ST: a
     * 500); 503 while the model is not ready.
     */
    public CompletionStage<byte[]> synthesize(JsonNode body) {
        String text;
        float[] speaker;
        OnDemandModel<SpeechModel> chosen;
        try {
            text = text(body.path("text"));
            speaker = speaker(body.path("speaker"));
            chosen = model(body.path("model"));
        } catch (Refusal refusal) {
            return CompletableFuture.failedFuture(refusal);
        }
        return chosen.submit(ready -> {
            SpeechModel.Audio audio = ready.synthesize(text, speaker);
            return WavWriter.float32Mono(audio.rate(), audio.samples());
        });
    }

    private static String text(JsonNode text) {
        if (!text.isTextual() || text.asText().isEmpty()) {
            throw Refusal.badRequest("\"text\" must be the text to speak");
        }
        return text.asText();
    }

    /** ST's {@code new Float32Array(Buffer.from(base64).buffer)}: little-endian floats, whole ones only. */
    static float[] speaker(JsonNode speaker) {
        if (!speaker.isTextual() || speaker.asText().isEmpty()) {
            throw Refusal.badRequest("\"speaker\" must be the speaker's embeddings: base64 of float32 values");
        }
        String base64 = speaker.asText();
        if (base64.startsWith("data:")) { // ST: speaker.split(',')[1]
            String[] parts = base64.split(",", -1);
            base64 = parts.length > 1 ? parts[1] : "";
        }
        byte[] bytes;
        try {
            // as Node's Buffer.from(…, 'base64'): the URL-safe alphabet too, other characters skipped
            bytes = Base64.getMimeDecoder().decode(base64.replace('-', '+').replace('_', '/'));
        } catch (IllegalArgumentException e) {
            throw Refusal.badRequest("\"speaker\" is not base64: " + e.getMessage());
        }
        if (bytes.length == 0 || bytes.length % Float.BYTES != 0) {
            throw Refusal.badRequest("\"speaker\" must be base64 of whole float32 values; it holds " + bytes.length
                    + " bytes");
        }
        float[] values = new float[bytes.length / Float.BYTES];
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(values);
        return values;
    }

    /** ST's getPipeline(task, model): the named model (swapping out the one loaded), else the one loaded. */
    private synchronized OnDemandModel<SpeechModel> model(JsonNode requested) {
        if (!requested.isMissingNode() && !requested.isNull() && !(requested.isTextual()
                && (requested.asText().isEmpty() || LocalEmbeddings.isRepoId(requested.asText())))) {
            throw Refusal.badRequest("\"model\" must be a Hugging Face repository id (owner/name)");
        }
        if (closed) {
            throw Refusal.unavailable("The " + TASK + " model is stopped");
        }
        String wanted = requested.asText("").isEmpty() ? (name != null ? name : configured) : requested.asText();
        if (!wanted.equals(name)) {
            if (model != null) {
                model.close(); // its queued texts end first
            }
            name = wanted;
            model = new OnDemandModel<>(TASK, KEY, "tankard.speech.synthesisQueueSize", wanted, models, autoDownload,
                    hub, queue, folder -> SpeechModel.load(folder, LocalEmbeddings.hubFolder(vocoderHub, models,
                    VOCODER, autoDownload, TASK + " vocoder", "the text-to-speech pipeline's vocoder")));
        }
        return model;
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (model != null) {
            model.close();
        }
    }
}

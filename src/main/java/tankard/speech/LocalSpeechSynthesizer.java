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

    private final PipelineSlot<SpeechModel> pipeline;

    public LocalSpeechSynthesizer(TankardConfig config, UpstreamClient downloader) {
        Path models = config.dataRoot().resolve("_models");
        boolean autoDownload = config.models().autoDownload();
        String configured = config.models().textToSpeech().isEmpty() ? DEFAULT_MODEL : config.models().textToSpeech();
        HubDownloader hub = new HubDownloader(downloader, SpeechModel.FILES, "it is not a transformers.js SpeechT5"
                + " text-to-speech model (an encoder, a merged decoder, tokenizer.json and preprocessor_config.json)");
        HubDownloader vocoderHub = new HubDownloader(downloader, SpeechModel.VOCODER_FILES,
                "it is not a transformers.js vocoder");
        pipeline = new PipelineSlot<>(TASK, configured, repo -> new OnDemandModel<>(TASK, KEY,
                "tankard.speech.synthesisQueueSize", repo, models, autoDownload, hub, config.models().synthesisQueue(),
                folder -> SpeechModel.load(folder, LocalEmbeddings.hubFolder(vocoderHub, models, VOCODER, autoDownload,
                        TASK + " vocoder", "the text-to-speech pipeline's vocoder"))));
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
            chosen = pipeline.model(body.path("model"));
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

    @Override
    public void close() {
        pipeline.close();
    }
}

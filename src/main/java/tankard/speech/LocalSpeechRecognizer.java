package tankard.speech;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.config.TankardConfig;
import tankard.core.Refusal;
import tankard.outbound.UpstreamClient;
import tankard.summarize.onnx.HubDownloader;
import tankard.vector.local.OnDemandModel;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * ST's local speech recognition (ST: src/endpoints/speech.js, recognize; src/transformers.js, the
 * automatic-speech-recognition task) on a Whisper model: the request's {@code model} when it names one (ST's
 * getPipeline then drops the model it had for it), else {@code extensions.models.speechToText}, else ST's default.
 * Loaded when first asked for (see {@link OnDemandModel}: 503 while it loads); recordings run behind a queue of
 * {@code tankard.speech.recognitionQueueSize}.
 */
public final class LocalSpeechRecognizer implements AutoCloseable {
    /** ST's default (src/transformers.js, the automatic-speech-recognition task). */
    public static final String DEFAULT_MODEL = "Xenova/whisper-small";

    private final PipelineSlot<WhisperModel> pipeline;

    public LocalSpeechRecognizer(TankardConfig config, UpstreamClient downloader) {
        String setting = config.models().speechToText();
        HubDownloader hub = new HubDownloader(downloader, WhisperModel.FILES, "it is not a transformers.js Whisper"
                + " model (an encoder, a decoder, tokenizer.json and preprocessor_config.json)");
        pipeline = new PipelineSlot<>("speech recognition", setting.isEmpty() ? DEFAULT_MODEL : setting, repo ->
                new OnDemandModel<>("speech recognition", "extensions.models.speechToText",
                        "tankard.speech.recognitionQueueSize", repo, config.dataRoot().resolve("_models"),
                        config.models().autoDownload(), hub, config.models().recognitionQueue(), WhisperModel::load));
    }

    /**
     * The transcript of the body's {@code audio} (a base64 data URL of a WAV file) in its {@code lang} (a Whisper
     * language code or name; none: detected). A 400 {@link Refusal} for audio that is no WAV this server reads or a
     * language Whisper does not know (ST answers those with a bare 500); 503 while the model is not ready.
     */
    public CompletionStage<String> recognize(JsonNode body) {
        WavAudio wav;
        String language;
        OnDemandModel<WhisperModel> chosen;
        try {
            wav = WavAudio.fromDataUrl(body.path("audio"));
            language = WhisperLanguages.code(body.path("lang").isTextual() ? body.path("lang").asText() : null);
            chosen = pipeline.model(body.path("model"));
        } catch (Refusal refusal) {
            return CompletableFuture.failedFuture(refusal);
        }
        // the resampling runs with the model, on its threads, not on the route's worker
        return chosen.submit(ready -> ready.transcribe(wav.mono16k(), language));
    }

    @Override
    public void close() {
        pipeline.close();
    }
}

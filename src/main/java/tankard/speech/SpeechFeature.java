package tankard.speech;

import io.vertx.ext.web.FileUpload;
import io.vertx.ext.web.Router;
import tankard.core.Refusal;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Request;
import tankard.http.Routes;
import tankard.json.JsJson;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Text-to-speech and speech recognition providers' routes for ST's TTS and STT extensions, with the local SpeechT5
 * model ({@code POST /api/speech/synthesize}) and the local Whisper recognizer ({@code POST /api/speech/recognize}
 * {@code {audio, lang, model}} → {@code {text}}); the wait on a provider or a model holds no thread.
 */
public record SpeechFeature(AzureSpeech azure, ElevenLabsSpeech elevenLabs, PollinationsSpeech pollinations,
                            MiniMaxSpeech miniMax, VolcengineSpeech volcengine, LocalSpeechSynthesizer synthesizer,
                            LocalSpeechRecognizer recognizer)
        implements Feature {
    private static final String MPEG = "audio/mpeg";

    @Override
    public void mount(Router router, Routes routes) {
        router.post("/api/speech/synthesize").handler(routes.later(request ->
                synthesizer.synthesize(request.body()).thenApply(wav -> new Reply.Body(200, "audio/wav", wav))));
        router.post("/api/speech/recognize").handler(routes.later(request ->
                recognizer.recognize(request.body()).thenApply(text -> Reply.json(JsJson.object().put("text", text)))));

        router.post("/api/azure/list").handler(routes.later(request ->
                azure.voices(request.user().handle(), request.body()).thenApply(Reply::json)));
        router.post("/api/azure/generate").handler(routes.later(request ->
                azure.speak(request.user().handle(), request.body())
                        .thenApply(audio -> new Reply.Body(200, "audio/ogg", audio))));

        String eleven = "/api/speech/elevenlabs";
        router.post(eleven + "/voices").handler(routes.later(request ->
                elevenLabs.voices(request.user().handle()).thenApply(Reply::json)));
        router.post(eleven + "/voice-settings").handler(routes.later(request ->
                elevenLabs.voiceSettings(request.user().handle()).thenApply(Reply::json)));
        router.post(eleven + "/history").handler(routes.later(request ->
                elevenLabs.history(request.user().handle()).thenApply(Reply::json)));
        router.post(eleven + "/synthesize").handler(routes.later(request ->
                elevenLabs.synthesize(request.user().handle(), request.body()).thenApply(SpeechFeature::mpeg)));
        router.post(eleven + "/history-audio").handler(routes.later(request ->
                elevenLabs.historyAudio(request.user().handle(), request.body()).thenApply(SpeechFeature::mpeg)));
        router.post(eleven + "/voices/add").handler(routes.later(request ->
                elevenLabs.addVoice(request.user().handle(), request.body()).thenApply(Reply::json)));
        router.post(eleven + "/recognize").handler(routes.later(request ->
                elevenLabs.recognize(request.user().handle(), upload(request), request.formField("model"))
                        .thenApply(Reply::json)));

        router.post("/api/speech/pollinations/voices").handler(routes.later(request ->
                pollinations.voices(request.body()).thenApply(Reply::json)));
        router.post("/api/speech/pollinations/generate").handler(routes.later(request ->
                pollinations.generate(request.user().handle(), request.body()).thenApply(SpeechFeature::mpeg)));

        router.post("/api/minimax/generate-voice").handler(routes.later(request ->
                miniMax.generate(request.user().handle(), request.body())
                        .thenApply(audio -> new Reply.Body(200, audio.contentType(), audio.bytes()))));
        router.post("/api/volcengine/generate-voice").handler(routes.later(request ->
                volcengine.generate(request.user().handle(), request.body()).thenApply(SpeechFeature::mpeg)));
    }

    private static Reply mpeg(byte[] audio) {
        return new Reply.Body(200, MPEG, audio);
    }

    /** The uploaded recording's bytes (read on the route's worker), or null when none came. */
    private static byte[] upload(Request request) throws java.io.IOException {
        FileUpload upload = request.upload();
        if (upload != null && upload.size() > ElevenLabsSpeech.MAX_RECORDING_BYTES) {
            throw Refusal.tooLarge("The recording is larger than " + (ElevenLabsSpeech.MAX_RECORDING_BYTES >> 20) + " MiB");
        }
        return upload == null ? null : Files.readAllBytes(Path.of(upload.uploadedFileName()));
    }
}

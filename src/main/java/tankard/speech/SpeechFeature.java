package tankard.speech;

import io.vertx.ext.web.Router;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;

/** Text-to-speech providers' routes for ST's TTS extension; the wait on a provider holds no thread. */
public record SpeechFeature(AzureSpeech azure) implements Feature {
    @Override
    public void mount(Router router, Routes routes) {
        router.post("/api/azure/list").handler(routes.later(request ->
                azure.voices(request.dirs(), request.body()).thenApply(Reply::json)));
        router.post("/api/azure/generate").handler(routes.later(request ->
                azure.speak(request.dirs(), request.body()).thenApply(audio -> new Reply.Body(200, "audio/ogg", audio))));
    }
}

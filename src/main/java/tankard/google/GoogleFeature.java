package tankard.google;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import tankard.backend.common.VertexAuth;
import tankard.config.TankardConfig;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;
import tankard.json.JsJson;
import tankard.outbound.ServiceCalls;
import tankard.outbound.UpstreamClient;
import tankard.secrets.SecretStore;
import tankard.translate.GoogleTranslateSpeech;

/**
 * ST's {@code /api/google/*} (src/endpoints/google.js): Gemini captions, Gemini's native voices and speech, Imagen
 * images and Veo videos through AI Studio or Vertex AI, and Google Translate's speech and its languages.
 */
public final class GoogleFeature implements Feature {
    /** Gemini's prebuilt voices and how Google describes them, as ST lists them (all {@code en-US}). */
    private static final String NATIVE_VOICES = "Zephyr:Bright Puck:Upbeat Charon:Informative Kore:Firm "
            + "Fenrir:Excitable Leda:Youthful Orus:Firm Aoede:Breezy Callirhoe:Easy-going Autonoe:Bright "
            + "Enceladus:Breathy Iapetus:Clear Umbriel:Easy-going Algieba:Smooth Despina:Smooth Erinome:Clear "
            + "Algenib:Gravelly Rasalgethi:Informative Laomedeia:Upbeat Achernar:Soft Alnilam:Firm Schedar:Even "
            + "Gacrux:Mature Pulcherrima:Forward Achird:Friendly Zubenelgenubi:Casual Vindemiatrix:Gentle "
            + "Sadachbia:Lively Sadaltager:Knowledgeable Sulafat:Warm";

    private final GoogleMedia media;
    private final GoogleTranslateSpeech translateSpeech;

    public GoogleFeature(TankardConfig config, Vertx vertx, SecretStore secrets, UpstreamClient upstream) {
        ServiceCalls calls = new ServiceCalls(upstream);
        GoogleApi api = new GoogleApi(secrets, new VertexAuth(upstream), config.backends().chat().geminiApiVersion());
        this.media = new GoogleMedia(api, calls, vertx, config.backends().geminiPersonGeneration(),
                config.backends().googleVideoPollMillis());
        this.translateSpeech = new GoogleTranslateSpeech(calls);
    }

    @Override
    public void mount(Router router, Routes routes) {
        router.post("/api/google/caption-image").handler(routes.later(request ->
                media.caption(request.user().handle(), request.body()).thenApply(Reply::json)));
        router.post("/api/google/list-voices").handler(routes.inline(request -> Reply.json(translateSpeech.languages())));
        router.post("/api/google/generate-voice").handler(routes.later(request ->
                translateSpeech.speak(request.body()).thenApply(audio -> new Reply.Body(200, "audio/mpeg", audio))));
        router.post("/api/google/list-native-voices").handler(routes.inline(request -> Reply.json(nativeVoices())));
        router.post("/api/google/generate-native-tts").handler(routes.later(request ->
                media.speech(request.user().handle(), request.body())
                        .thenApply(answer -> new Reply.Body(answer.status(), answer.contentType(), answer.bytes()))));
        router.post("/api/google/generate-image").handler(routes.later(request ->
                media.image(request.user().handle(), request.body()).thenApply(Reply::json)));
        router.post("/api/google/generate-video").handler(routes.later(request ->
                media.video(request.user().handle(), request.body()).thenApply(Reply::json)));
    }

    private static ObjectNode nativeVoices() {
        ObjectNode answer = JsJson.object();
        ArrayNode voices = answer.putArray("voices");
        for (String voice : NATIVE_VOICES.split(" ")) {
            String[] nameAndTone = voice.split(":");
            voices.addObject().put("name", nameAndTone[0]).put("voice_id", nameAndTone[0]).put("lang", "en-US")
                    .put("description", nameAndTone[1]);
        }
        return answer;
    }
}

package tankard.backend.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import tankard.backend.common.GeminiSafety;
import tankard.backend.common.SecretReader;
import tankard.backend.common.Urls;
import tankard.backend.common.VertexAuth;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.outbound.UpstreamClient;
import tankard.outbound.UpstreamRequest;

import java.util.Set;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;

/**
 * Gemini through Google AI Studio ({@code makersuite}) or Vertex AI ({@code vertexai}), ST's
 * sendMakerSuiteRequest (src/endpoints/backends/chat-completions.js; Vertex AI's URL and auth from
 * getGoogleApiConfig and getVertexAIAuth, src/endpoints/google.js): the converted prompt with ST's generation, safety,
 * tool and thinking settings; Google's SSE relayed as is; a non-streamed answer wrapped in OpenAI's shape with
 * Google's content beside it. Vertex authenticates by reverse proxy, API key (express) or service account (full).
 */
final class GoogleSource implements ChatCompletionSource {
    static final String MAKERSUITE_SECRET = "api_key_makersuite";
    static final String VERTEX_SECRET = "api_key_vertexai";
    static final String SERVICE_ACCOUNT_SECRET = "vertexai_service_account_json";
    private static final String MAKERSUITE_API = "https://generativelanguage.googleapis.com";
    private static final String VERTEX_API = "https://us-central1-aiplatform.googleapis.com";
    private static final Set<String> IMAGE_MODELS = Set.of("gemini-2.0-flash-exp",
            "gemini-2.0-flash-exp-image-generation", "gemini-2.0-flash-preview-image-generation",
            "gemini-2.5-flash-image-preview", "gemini-2.5-flash-image", "gemini-3-pro-image-preview",
            "gemini-3.1-flash-image-preview");
    private static final Set<String> NO_SEARCH_MODELS = Set.of("gemini-2.0-flash-lite", "gemini-2.0-flash-lite-001",
            "gemini-2.0-flash-lite-preview-02-05", "gemini-robotics-er-1.5-preview");
    private static final Pattern THINKING_25 = Pattern.compile("^gemini-2.5-(flash|pro)");
    private static final Pattern IMAGE_SUFFIX = Pattern.compile("-image(-preview)?$");
    private static final Pattern THINKING_3 = Pattern.compile("^gemini-3[.\\d]*-(flash|pro)");
    private static final Pattern GEMINI_3_PRO = Pattern.compile("gemini-3[.\\d]*-pro");
    private static final Pattern GEMINI_3_FLASH = Pattern.compile("gemini-3[.\\d]*-flash");


    private final boolean vertex;
    private final VertexAuth auth;
    private final LongSupplier nowSeconds;
    /** ST's {@code gemini.apiVersion}: AI Studio's API version in its URLs. */
    private final String apiVersion;

    private GoogleSource(boolean vertex, VertexAuth auth, LongSupplier nowSeconds, String apiVersion) {
        this.vertex = vertex;
        this.auth = auth;
        this.nowSeconds = nowSeconds;
        this.apiVersion = apiVersion;
    }

    static GoogleSource aiStudio(String apiVersion) {
        return new GoogleSource(false, null, () -> System.currentTimeMillis() / 1000, apiVersion);
    }

    /** Vertex AI; its service-account token call is made through {@code upstream} before the call goes. */
    static GoogleSource vertex(UpstreamClient upstream) {
        return new GoogleSource(true, new VertexAuth(upstream),
                () -> System.currentTimeMillis() / 1000, null);
    }

    @Override
    public String id() {
        return vertex ? "vertexai" : "makersuite";
    }

    private String apiName() {
        return vertex ? "Google Vertex AI" : "Google AI Studio";
    }

    @Override
    public SourceStep generate(ObjectNode body, SecretReader secrets) {
        boolean proxy = Js.truthy(body.get("reverse_proxy"));
        String model = Js.string(body.get("model"));
        boolean stream = Js.truthy(body.get("stream"));
        String method = stream ? "streamGenerateContent" : "generateContent";
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().set("Content-Type", "application/json");
        String url;
        if (!vertex) {
            JsonNode key = DedicatedSenders.apiKey(body, secrets, MAKERSUITE_SECRET);
            if (!proxy && !Js.truthy(key)) {
                return SourceStep.badRequest();
            }
            url = trimSlash(DedicatedSenders.baseUrl(body, MAKERSUITE_API)) + "/" + apiVersion + "/models/" + model
                    + ":" + method + "?key=" + Js.string(key) + (stream ? "&alt=sse" : "");
        } else {
            String mode = Js.truthy(body.get("vertexai_auth_mode")) ? Js.string(body.get("vertexai_auth_mode"))
                    : "express";
            String region = Js.truthy(body.get("vertexai_region")) ? Js.string(body.get("vertexai_region"))
                    : "us-central1";
            String path = "/publishers/google/models/" + model + ":" + method;
            if (proxy) {
                headers.set("Authorization", "Bearer " + Js.string(body.get("proxy_password")));
                url = trimSlash(DedicatedSenders.baseUrl(body, VERTEX_API)) + "/v1" + path + (stream ? "?alt=sse" : "");
            } else if ("express".equals(mode)) {
                String key = secrets.read(VERTEX_SECRET, null);
                if (key.isEmpty()) {
                    return authFailure("API key is required for Vertex AI Express mode");
                }
                JsonNode projectId = body.get("vertexai_express_project_id");
                String query = "?key=" + key + (stream ? "&alt=sse" : "");
                url = Js.truthy(projectId)
                        ? VertexAuth.GLOBAL_ORIGIN + "/v1/projects/" + Js.string(projectId) + "/locations/" + region
                        + path + query
                        : VertexAuth.regionalOrigin(region) + "/v1" + path + query;
            } else if ("full".equals(mode)) {
                return serviceAccountCall(body, secrets, headers, region, path + (stream ? "?alt=sse" : ""));
            } else {
                return authFailure("Unsupported Vertex AI authentication mode: " + mode);
            }
        }
        return new SourceStep.Call(UpstreamRequest.post(url, headers, requestBody(body, model)));
    }

    /**
     * Vertex AI's "full" mode: the service account's signed JWT traded for a token, then the call to the account's
     * project; the token first, then the project, as in ST.
     */
    private SourceStep serviceAccountCall(ObjectNode body, SecretReader secrets, MultiMap headers, String region,
                                          String path) {
        String serviceAccount = secrets.read(SERVICE_ACCOUNT_SECRET, null);
        if (serviceAccount.isEmpty()) {
            return authFailure("Service Account JSON is required for Vertex AI Full mode");
        }
        String jwt;
        try {
            jwt = VertexAuth.jwt(JsJson.parse(serviceAccount), nowSeconds.getAsLong());
        } catch (Exception e) {
            return authFailure("Service account authentication failed: " + e.getMessage());
        }
        String project = VertexAuth.projectId(DedicatedSenders.secret(body, secrets, SERVICE_ACCOUNT_SECRET));
        JsonNode content = requestBody(body, Js.string(body.get("model")));
        return new SourceStep.Later(() -> auth.accessToken(jwt).transform(token -> {
            if (token.failed()) {
                return Future.succeededFuture(authFailure("Service account authentication failed: "
                        + token.cause().getMessage()));
            }
            if (project == null) {
                return Future.succeededFuture(SourceStep.badRequest());
            }
            headers.set("Authorization", "Bearer " + token.result());
            return Future.succeededFuture(new SourceStep.Call(UpstreamRequest.post(VertexAuth.regionalOrigin(region)
                    + "/v1/projects/" + project + "/locations/" + region + path, headers, content)));
        }));
    }

    private static String trimSlash(String url) {
        return Urls.trimTrailingSlash(url);
    }

    private static SourceStep authFailure(String message) {
        return new SourceStep.Answered(new JsonAnswer(400, JsonAnswer.errorTrue().put("message", message)));
    }

    /** Gemini's generateContent body (ST's getGeminiBody). */
    ObjectNode requestBody(ObjectNode body, String model) {
        boolean gemma3 = model.contains("gemma-3");
        boolean learnLm = model.contains("learnlm");
        JsonNode schema = body.get("json_schema");
        ObjectNode config = JsJson.object();
        JsonNode stop = body.get("stop");
        if (stop != null && stop.isArray() && !stop.isEmpty()) {
            config.set("stopSequences", stop);
        }
        config.put("candidateCount", 1);
        DedicatedSenders.copy(body, "max_tokens", config, "maxOutputTokens");
        DedicatedSenders.copy(body, "temperature", config, "temperature");
        DedicatedSenders.copy(body, "top_p", config, "topP");
        if (Js.truthy(body.get("top_k"))) {
            config.set("topK", body.get("top_k"));
        }
        JsonNode mime = body.get("responseMimeType");
        if (mime != null && !mime.isNull()) {
            config.set("responseMimeType", mime);
        } else if (Js.truthy(schema)) {
            config.put("responseMimeType", "application/json");
        }
        JsonNode responseSchema = body.get("responseSchema");
        if (responseSchema != null && !responseSchema.isNull()) {
            config.set("responseSchema", responseSchema);
        } else if (Js.truthy(schema)) {
            DedicatedSenders.copy(schema, "value", config, "responseSchema");
        }
        DedicatedSenders.copy(body, "seed", config, "seed");

        boolean imageModality = Js.truthy(body.get("request_images")) && IMAGE_MODELS.contains(model);
        if (imageModality) {
            config.putArray("responseModalities").add("text").add("image");
            // ST stringifies both, so an absent one is sent as "undefined"
            String aspectRatio = Js.string(body.get("request_image_aspect_ratio"));
            String imageSize = Js.string(body.get("request_image_resolution"));
            if (!aspectRatio.isEmpty() || !imageSize.isEmpty()) {
                ObjectNode imageConfig = config.putObject("imageConfig");
                if (!imageSize.isEmpty() && model.startsWith("gemini-3")) {
                    imageConfig.put("imageSize", imageSize);
                }
                if (!aspectRatio.isEmpty()) {
                    imageConfig.put("aspectRatio", aspectRatio);
                }
            }
        }
        boolean useSystemPrompt = !imageModality && !gemma3 && Js.truthy(body.get("use_sysprompt"));
        GooglePrompt.Converted prompt = GooglePrompt.convert(body.path("messages"), model, useSystemPrompt,
                PromptNames.of(body));
        ArrayNode tools = tools(body, !imageModality && !gemma3);
        if (Js.truthy(body.get("enable_web_search")) && !imageModality && !gemma3 && !learnLm
                && !NO_SEARCH_MODELS.contains(model) && !hasFunctions(tools)) {
            tools.addObject().putObject("google_search");
        }
        if (THINKING_25.matcher(model).find() && !IMAGE_SUFFIX.matcher(model).find()
                || THINKING_3.matcher(model).find()) {
            config.set("thinkingConfig", thinkingConfig(body, model, config.get("maxOutputTokens")));
        }

        ObjectNode out = JsJson.object();
        out.set("contents", prompt.contents());
        out.set("safetySettings", GeminiSafety.settings(vertex));
        out.set("generationConfig", config);
        if (useSystemPrompt && !prompt.systemInstruction().path("parts").isEmpty()) {
            out.set("systemInstruction", prompt.systemInstruction());
        }
        if (!tools.isEmpty()) {
            out.set("tools", tools);
            ObjectNode calling = functionCallingConfig(body.get("tool_choice"));
            if (calling != null) {
                out.putObject("toolConfig").set("functionCallingConfig", calling);
            }
        }
        return out;
    }

    /** Function tools as Gemini's declarations; other tools ({@code {type: X, X: cfg}}) only when none. */
    private static ArrayNode tools(ObjectNode body, boolean allowed) {
        ArrayNode tools = JsJson.array();
        JsonNode given = body.path("tools");
        if (!allowed || !given.isArray() || given.isEmpty()) {
            return tools;
        }
        ArrayNode declarations = JsJson.array();
        ArrayNode custom = JsJson.array();
        for (JsonNode tool : given) {
            String type = Js.string(tool.get("type"));
            if ("function".equals(type)) {
                ObjectNode function = tool.path("function").isObject() ? tool.get("function").deepCopy()
                        : JsJson.object();
                JsonNode parameters = function.path("parameters");
                if (parameters.isObject() && Js.truthy(parameters.get("$schema"))) {
                    ((ObjectNode) parameters).remove("$schema");
                }
                if (Js.truthy(parameters.get("properties")) && parameters.get("properties").isObject()
                        && parameters.get("properties").isEmpty()) {
                    function.remove("parameters");
                }
                declarations.add(function);
            } else if (Js.truthy(tool.get(type))) {
                custom.addObject().set(type, tool.get(type));
            }
        }
        if (!declarations.isEmpty()) {
            tools.addObject().set("function_declarations", declarations);
        } else {
            tools.addAll(custom);
        }
        return tools;
    }

    private static boolean hasFunctions(ArrayNode tools) {
        for (JsonNode tool : tools) {
            if (Js.truthy(tool.get("function_declarations"))) {
                return true;
            }
        }
        return false;
    }

    private static ObjectNode functionCallingConfig(JsonNode choice) {
        if (choice != null && choice.isTextual()) {
            return switch (choice.textValue()) {
                case "none" -> JsJson.object().put("mode", "NONE");
                case "required" -> JsJson.object().put("mode", "ANY");
                case "auto" -> JsJson.object().put("mode", "AUTO");
                default -> null;
            };
        }
        JsonNode name = choice == null ? null : choice.path("function").get("name");
        if (choice != null && choice.isObject() && Js.truthy(name)) {
            ObjectNode config = JsJson.object().put("mode", "ANY");
            config.putArray("allowedFunctionNames").add(name);
            return config;
        }
        return null;
    }

    /** ST's thinking settings: a level for Gemini 3, a token budget for 2.5 (calculateGoogleBudgetTokens). */
    private ObjectNode thinkingConfig(ObjectNode body, String model, JsonNode maxTokensNode) {
        ObjectNode thinking = JsJson.object().put("includeThoughts", Js.truthy(body.get("include_reasoning")));
        String effort = Js.string(body.get("reasoning_effort"));
        double maxTokens = maxTokensNode != null && maxTokensNode.isNumber() ? maxTokensNode.doubleValue() : Double.NaN;
        if (GEMINI_3_PRO.matcher(model).find()) {
            String level = switch (effort) {
                case "min", "low", "medium" -> "low";
                case "high", "max" -> "high";
                default -> null;
            };
            if (level != null) {
                thinking.put("thinkingLevel", level);
            }
            return thinking;
        }
        if (GEMINI_3_FLASH.matcher(model).find()) {
            String level = switch (effort) {
                case "min" -> "minimal";
                case "low", "medium", "high" -> effort;
                case "max" -> "high";
                default -> null;
            };
            if (level != null) {
                thinking.put("thinkingLevel", level);
            }
            return thinking;
        }
        Double budget = null;
        if (model.contains("flash-lite")) {
            budget = flashBudget(effort, maxTokens, 0, 512);
        } else if (model.contains("flash")) {
            budget = flashBudget(effort, maxTokens, 0, Double.NEGATIVE_INFINITY);
        } else if (model.contains("pro")) {
            budget = "auto".equals(effort) ? -1 : Math.max(Math.min(share(effort, maxTokens, 128), 32768), 128);
        }
        if (budget != null && !budget.isNaN()) {
            thinking.put("thinkingBudget", budget.longValue());
            if (vertex && budget == 0 && thinking.get("includeThoughts").booleanValue()) {
                thinking.put("includeThoughts", false);
            }
        }
        return thinking;
    }

    private static double flashBudget(String effort, double maxTokens, double min, double floor) {
        if ("auto".equals(effort)) {
            return -1;
        }
        if ("min".equals(effort)) {
            return min;
        }
        return Math.max(Math.min(share(effort, maxTokens, 0), 24576), floor);
    }

    /** The budget share of {@code max_tokens} for an effort; {@code min} for "min", 0 for an unknown one. */
    private static double share(String effort, double maxTokens, double min) {
        return switch (effort) {
            case "min" -> min;
            case "low" -> Math.floor(maxTokens * 0.1);
            case "medium" -> Math.floor(maxTokens * 0.25);
            case "high" -> Math.floor(maxTokens * 0.5);
            case "max" -> maxTokens;
            default -> 0;
        };
    }

    @Override
    public SourceStep models(ObjectNode body, SecretReader secrets) {
        if (vertex) {
            return SourceStep.badRequest();
        }
        boolean proxy = Js.truthy(body.get("reverse_proxy"));
        JsonNode key = DedicatedSenders.apiKey(body, secrets, MAKERSUITE_SECRET);
        boolean noKey = !Js.truthy(key);
        if (noKey && !proxy) {
            return SourceStep.badRequest();
        }
        String base = trimSlash(proxy ? Js.string(body.get("reverse_proxy")) : MAKERSUITE_API) + "/" + apiVersion
                + "/models";
        return new SourceStep.Call(UpstreamRequest.get(noKey ? base : base + "?key=" + Js.string(key),
                MultiMap.caseInsensitiveMultiMap()));
    }

    @Override
    public JsonNode modelList(UpstreamClient.Fetched answer) {
        JsonNode json = answer.ok() ? JsJson.tryParse(answer.body().getBytes()) : null;
        if (json == null) {
            return statusFailure();
        }
        ArrayNode models = JsJson.array();
        JsonNode all = json.get("models");
        if (all != null && all.isArray()) {
            for (JsonNode model : all) {
                JsonNode methods = model.path("supportedGenerationMethods");
                if (methods.isArray() && contains(methods, "generateContent")) {
                    ObjectNode copy = model.deepCopy();
                    copy.put("id", Js.string(model.get("name")).replaceFirst(Pattern.quote("models/"), ""));
                    models.add(copy);
                }
            }
        }
        return JsJson.object().set("data", models);
    }

    private static boolean contains(JsonNode array, String value) {
        for (JsonNode element : array) {
            if (element.isTextual() && element.textValue().equals(value)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public JsonNode statusFailure() {
        ObjectNode failure = JsonAnswer.errorTrue().put("bypass", true);
        failure.putObject("data").putArray("data");
        return failure;
    }

    @Override
    public JsonAnswer completion(UpstreamClient.Fetched answer) {
        if (!answer.ok()) {
            JsonNode error = JsJson.tryParse(answer.body().getBytes());
            return new JsonAnswer(500, error == null || error.isNull() ? JsonAnswer.errorTrue() : error);
        }
        JsonNode json = JsJson.tryParse(answer.body().getBytes());
        if (json == null) {
            return failure(null);
        }
        JsonNode candidates = json.get("candidates");
        if (!Js.truthy(candidates) || candidates.isArray() && candidates.isEmpty()) {
            String message = apiName() + " API returned no candidate";
            JsonNode blockReason = json.path("promptFeedback").get("blockReason");
            if (Js.truthy(blockReason)) {
                message += "\nPrompt was blocked due to : " + Js.string(blockReason);
            }
            return errorMessage(message);
        }
        JsonNode candidate = candidates.path(0);
        JsonNode content = candidate.get("content");
        JsonNode responseContent = content != null && !content.isNull() ? content : candidate.get("output");
        boolean functionCall = false;
        boolean inlineData = false;
        for (JsonNode part : candidate.path("content").path("parts")) {
            functionCall |= Js.truthy(part.get("functionCall"));
            inlineData |= Js.truthy(part.get("inlineData"));
        }
        JsonNode text = responseText(responseContent);
        if (!Js.truthy(text) && !functionCall && !inlineData) {
            return errorMessage(apiName() + " Candidate text empty");
        }
        ObjectNode reply = JsJson.object();
        ObjectNode message = reply.putArray("choices").addObject().putObject("message");
        if (text != null) {
            message.set("content", text);
        }
        if (responseContent != null) {
            reply.set("responseContent", responseContent);
        }
        return JsonAnswer.ok(reply);
    }

    /** The answer's text: non-thought parts' text joined by blank lines (null: none, as ST's undefined). */
    private static JsonNode responseText(JsonNode content) {
        if (content != null && content.isTextual()) {
            return content;
        }
        JsonNode parts = content == null ? null : content.get("parts");
        if (parts == null || !parts.isArray()) {
            return null;
        }
        StringBuilder text = new StringBuilder();
        boolean first = true;
        for (JsonNode part : parts) {
            if (Js.truthy(part.get("thought"))) {
                continue;
            }
            if (!first) {
                text.append("\n\n");
            }
            first = false;
            JsonNode value = part.get("text");
            if (value != null && !value.isNull()) {
                text.append(Js.string(value));
            }
        }
        return JsJson.tree(text.toString());
    }

    private static JsonAnswer errorMessage(String message) {
        return JsonAnswer.ok(JsonAnswer.errorMessage(message));
    }

    @Override
    public JsonAnswer failure(Throwable failure) {
        return JsonAnswer.errorTrue(500);
    }
}

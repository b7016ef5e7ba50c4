package tankard.backend.common;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.outbound.UpstreamClient;
import tankard.outbound.UpstreamRequest;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Vertex AI's "full" mode (ST's generateJWTToken and getAccessToken, src/endpoints/google.js): a service
 * account's RS256-signed JWT traded for an OAuth access token, a new one per request as ST does. The token
 * call is an upstream call like the others: through the outbound policy (proxy, private-address filter) and the
 * configured provider origins. Used by the chat completions and the vector sources.
 */
public final class VertexAuth {
    public static final String GOOGLE_TOKEN_URL = "https://oauth2.googleapis.com/token";
    public static final String GLOBAL_ORIGIN = "https://aiplatform.googleapis.com";
    /** How long the token may take: a call whose token never comes ends with an error rather than never. */
    private static final long TIMEOUT_SECONDS = 60;

    private final UpstreamClient upstream;

    public VertexAuth(UpstreamClient upstream) {
        this.upstream = upstream;
    }

    /** The service account's JWT for Google's token endpoint, issued at {@code nowSeconds}, valid an hour. */
    public static String jwt(JsonNode serviceAccount, long nowSeconds) throws GeneralSecurityException {
        String header = base64Url("{\"alg\":\"RS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
        var claims = JsJson.object();
        JsonFields.copyAs(serviceAccount, "client_email", claims, "iss");
        claims.put("scope", "https://www.googleapis.com/auth/cloud-platform")
                .put("aud", GOOGLE_TOKEN_URL).put("iat", nowSeconds).put("exp", nowSeconds + 3600);
        String input = header + "." + base64Url(JsJson.compactBytes(claims));
        Signature signer = Signature.getInstance("SHA256withRSA");
        signer.initSign(privateKey(Js.string(serviceAccount.get("private_key"))));
        signer.update(input.getBytes(StandardCharsets.UTF_8));
        return input + "." + base64Url(signer.sign());
    }

    /** A PKCS#8 PEM key, as service account files hold it. */
    private static PrivateKey privateKey(String pem) throws GeneralSecurityException {
        String base64 = pem.replaceAll("-----(BEGIN|END) PRIVATE KEY-----", "").replaceAll("\\s", "");
        try {
            byte[] der = Base64.getDecoder().decode(base64);
            return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der));
        } catch (IllegalArgumentException e) {
            throw new GeneralSecurityException("Invalid private key", e);
        }
    }

    /** Vertex AI's origin for a region: the global one, or the region's own (ST: google.js, getGoogleApiConfig). */
    public static String regionalOrigin(String region) {
        return "global".equals(region) ? GLOBAL_ORIGIN : "https://" + region + "-aiplatform.googleapis.com";
    }

    /**
     * The service account's project, or null when the JSON is missing or names none (ST: google.js,
     * getProjectIdFromServiceAccount).
     */
    public static String projectId(String json) {
        JsonNode account = json.isEmpty() ? null : JsJson.tryParse(json.getBytes(StandardCharsets.UTF_8));
        JsonNode projectId = account == null ? null : account.get("project_id");
        return projectId == null || !projectId.isTextual() || projectId.textValue().isEmpty() ? null
                : projectId.textValue();
    }

    private static String base64Url(byte[] bytes) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /**
     * The access token for this JWT, fetched without holding a thread; fails with ST's message when Google
     * refuses the JWT, cannot be reached or does not answer within a minute.
     */
    public Future<String> accessToken(String jwt) {
        String form = "grant_type=" + URLEncoder.encode("urn:ietf:params:oauth:grant-type:jwt-bearer",
                StandardCharsets.UTF_8) + "&assertion=" + URLEncoder.encode(jwt, StandardCharsets.UTF_8);
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().set("Content-Type", "application/x-www-form-urlencoded");
        return upstream.fetch(new UpstreamRequest(HttpMethod.POST, GOOGLE_TOKEN_URL, headers, Buffer.buffer(form)))
                .timeout(TIMEOUT_SECONDS, TimeUnit.SECONDS)
                .recover(e -> Future.failedFuture(e instanceof TimeoutException
                        ? new IOException("The token request timed out") : e))
                .compose(answer -> {
                    if (!answer.ok()) {
                        return Future.failedFuture(new IOException("Failed to get access token: " + answer.body()));
                    }
                    JsonNode json = JsJson.parse(answer.body().getBytes()); // not JSON: fails the token, as in ST
                    return Future.succeededFuture(Js.string(json.get("access_token")));
                });
    }
}

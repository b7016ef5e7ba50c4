package tankard.backend;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.json.Js;
import tankard.json.JsJson;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;

/**
 * Vertex AI's "full" mode (ST's generateJWTToken and getAccessToken, st-backends.md §2.5.3): a service
 * account's RS256-signed JWT traded for an OAuth access token, a new one per request as ST does.
 */
final class VertexAuth {
    static final String GOOGLE_TOKEN_URL = "https://oauth2.googleapis.com/token";

    private final String tokenUrl;
    private final HttpClient http = HttpClient.newHttpClient();

    VertexAuth(String tokenUrl) {
        this.tokenUrl = tokenUrl;
    }

    /** The service account's JWT for Google's token endpoint, issued at {@code nowSeconds}, valid an hour. */
    static String jwt(JsonNode serviceAccount, long nowSeconds) throws GeneralSecurityException {
        String header = base64Url("{\"alg\":\"RS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
        var claims = JsJson.object();
        DedicatedSenders.copy(serviceAccount, "client_email", claims, "iss");
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

    private static String base64Url(byte[] bytes) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /**
     * The access token for this JWT. Blocks: called on a worker while the upstream call is built.
     *
     * @throws IOException with ST's message when Google refuses the JWT or cannot be reached
     */
    String accessToken(String jwt) throws IOException {
        String form = "grant_type=" + URLEncoder.encode("urn:ietf:params:oauth:grant-type:jwt-bearer",
                StandardCharsets.UTF_8) + "&assertion=" + URLEncoder.encode(jwt, StandardCharsets.UTF_8);
        HttpRequest request = HttpRequest.newBuilder(URI.create(tokenUrl))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build();
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted", e);
        }
        if (response.statusCode() < 200 || response.statusCode() >= 300) {
            throw new IOException("Failed to get access token: " + response.body());
        }
        JsonNode json = JsJson.parse(response.body());
        return Js.string(json.get("access_token"));
    }
}

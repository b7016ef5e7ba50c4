package tankard.backend.novelai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.Js;
import tankard.json.JsJson;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import static tankard.backend.common.JsonFields.number;

/** NovelAI Diffusion as ST calls it: its v4-style request for the frontend's settings, and its ZIP answers. */
final class NovelAiImages {
    /** The image size (832 × 1216) NovelAI's "Variety+" sigma is scaled from. */
    private static final double REFERENCE_PIXELS = 1011712;

    private NovelAiImages() {
    }

    /** The {@code /ai/generate-image} body for the frontend's request; {@code ??} defaults as ST's. */
    static ObjectNode request(JsonNode body) {
        JsonNode prompt = or(body, "prompt", "");
        JsonNode negative = or(body, "negative_prompt", "");
        JsonNode model = or(body, "model", "nai-diffusion");
        JsonNode width = or(body, "width", 512);
        JsonNode height = or(body, "height", 512);
        ObjectNode request = JsJson.object().put("action", "generate");
        request.set("input", prompt);
        request.set("model", model);
        ObjectNode parameters = request.putObject("parameters").put("params_version", 3).put("prefer_brownian", true);
        parameters.set("negative_prompt", negative);
        parameters.set("height", height);
        parameters.set("width", width);
        parameters.set("scale", or(body, "scale", 9));
        JsonNode seed = body.get("seed");
        parameters.set("seed", seed != null && number(seed) >= 0 ? seed
                : JsJson.tree((long) Math.floor(ThreadLocalRandom.current().nextDouble() * 9999999999L)));
        parameters.set("sampler", or(body, "sampler", "k_dpmpp_2m"));
        parameters.set("noise_schedule", or(body, "scheduler", "karras"));
        parameters.set("steps", or(body, "steps", 28));
        parameters.put("n_samples", 1).put("ucPreset", 0).put("qualityToggle", false).put("add_original_image", false)
                .put("controlnet_strength", 1).put("deliberate_euler_ancestral_bug", false);
        parameters.set("dynamic_thresholding", or(body, "decrisper", false));
        parameters.put("legacy", false).put("legacy_v3_extend", false);
        parameters.set("sm", or(body, "sm", false));
        parameters.set("sm_dyn", or(body, "sm_dyn", false));
        parameters.put("uncond_scale", 1);
        parameters.set("skip_cfg_above_sigma", Js.truthy(body.get("variety_boost"))
                ? JsJson.tree(skipCfgAboveSigma(number(width), number(height), Js.string(model))) : JsJson.tree(null));
        parameters.put("use_coords", false);
        parameters.putArray("characterPrompts");
        parameters.putArray("reference_image_multiple");
        parameters.putArray("reference_information_extracted_multiple");
        parameters.putArray("reference_strength_multiple");
        parameters.putObject("v4_negative_prompt").putObject("caption").<ObjectNode>set("base_caption", negative)
                .putArray("char_captions");
        ObjectNode v4Prompt = parameters.putObject("v4_prompt");
        v4Prompt.putObject("caption").<ObjectNode>set("base_caption", prompt).putArray("char_captions");
        v4Prompt.put("use_coords", false).put("use_order", true);
        return request;
    }

    /** "Variety+": guidance is skipped above a sigma that grows with the image size. */
    private static double skipCfgAboveSigma(double width, double height, String model) {
        double magic = model.contains("nai-diffusion-4-5") ? 58 : 19;
        return Math.sqrt(width * height / REFERENCE_PIXELS) * magic;
    }

    /** The upscale ratio the frontend asks for, or NaN when it asks for none. */
    static double upscaleRatio(JsonNode body) {
        double ratio = number(body.get("upscale_ratio"));
        return ratio > 1 ? ratio : Double.NaN;
    }

    /** The first PNG of NovelAI's ZIP answer (macOS metadata skipped), or null when there is none. */
    static byte[] firstPng(byte[] zip) {
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip))) {
            for (ZipEntry entry; (entry = in.getNextEntry()) != null; ) {
                if (entry.getName().endsWith(".png") && !entry.getName().startsWith("__MACOSX")) {
                    return in.readAllBytes();
                }
            }
            return null;
        } catch (IOException e) {
            return null;
        }
    }

    private static JsonNode or(JsonNode body, String field, Object fallback) {
        return Js.coalesce(body.get(field), JsJson.tree(fallback));
    }
}

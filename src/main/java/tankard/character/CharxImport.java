package tankard.character;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.Js;
import tankard.store.BlobStore;
import tankard.util.SafeZip;
import tankard.util.Sanitize;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** CharX archives (ST: src/charx.js, CharXParser): {@code card.json} plus embedded assets. */
final class CharxImport {
    private static final List<String> EMBEDDED_PREFIXES = List.of("embeded://", "embedded://", "__asset:");
    private static final Set<String> IMAGE_EXTENSIONS = Set.of("png", "jpg", "jpeg", "webp", "gif", "apng", "avif", "bmp", "jfif");

    private final CardImporter importer;

    CharxImport(CardImporter importer) {
        this.importer = importer;
    }

    /** An embedded asset of {@code data.assets}: its type (lower-case), name, extension and ZIP path. */
    private record Asset(String type, String name, String ext, String zipPath, int order) {
    }

    CardImporter.Prepared read(Path file, ImportPlan plan) throws IOException {
        try (SafeZip zip = SafeZip.open(file, SafeZip.DEFAULT)) {
            byte[] cardJson = zip.readEndingWith("card.json");
            if (cardJson == null) {
                throw new CardFormatException("The CharX archive has no card.json");
            }
            if (cardJson.length > CardImporter.MAX_CARD_BYTES) {
                throw new CardFormatException("The card data is larger than " + (CardImporter.MAX_CARD_BYTES >> 20) + " MB");
            }
            ObjectNode json = CardImporter.parseObject(cardJson);
            if (!json.has("spec")) {
                throw new CardFormatException("Invalid CharX card file: missing spec field");
            }
            List<Asset> assets = assets(json);
            CardImporter.sanitizeNames(json);
            ObjectNode card = CardNormalizer.normalize(json, importer.humanizedNow());
            CardNormalizer.unsetPrivateFields(card);
            card.put("create_date", importer.isoNow());

            byte[] avatar = null;
            Asset icon = icon(assets);
            if (icon != null) {
                avatar = zip.readExact(icon.zipPath());
            }
            String folder = Js.string(card.get("name"));
            String sprites = BlobStore.child(ImportPlan.CHARACTERS, folder);
            for (Asset asset : assets) {
                if (!IMAGE_EXTENSIONS.contains(asset.ext()) || asset.type().equals("icon") || asset.type().equals("user_icon")) {
                    continue;
                }
                byte[] bytes = zip.readExact(asset.zipPath());
                if (bytes == null) {
                    continue; // ST skips assets missing from the archive
                }
                String stripped = stripImageExtension(asset.name(), asset.ext());
                switch (asset.type()) {
                    case "emotion", "expression" -> plan.replaceSameBase(BlobStore.child(sprites,
                            baseName(stripped, "sprite-" + asset.order(), "-") + "." + asset.ext()), bytes);
                    case "background" -> plan.replaceSameBase(BlobStore.child(sprites + "/backgrounds",
                            baseName(stripped, "background-" + asset.order(), "_") + "." + asset.ext()), bytes);
                    default -> plan.write(BlobStore.child(BlobStore.child(ImportPlan.USER_IMAGES, folder),
                            baseName(stripped, "misc-" + asset.order(), "_") + "." + asset.ext()), bytes);
                }
            }
            return new CardImporter.Prepared(card, avatar);
        }
    }

    private static List<Asset> assets(ObjectNode card) {
        List<Asset> assets = new ArrayList<>();
        JsonNode list = Js.get(card, "data.assets");
        if (list == null || !list.isArray()) {
            return assets;
        }
        for (int i = 0; i < list.size(); i++) {
            JsonNode asset = list.get(i);
            String zipPath = zipPath(asset.get("uri"));
            if (zipPath == null) {
                continue;
            }
            String ext = normalizeExt(asset.path("ext").isTextual() ? asset.get("ext").textValue() : "");
            if (ext.isEmpty()) {
                int dot = zipPath.lastIndexOf('.');
                ext = dot > zipPath.lastIndexOf('/') + 1 ? normalizeExt(zipPath.substring(dot)) : "";
            }
            String type = asset.path("type").isTextual() ? asset.get("type").textValue().toLowerCase(Locale.ROOT) : "";
            String name = asset.path("name").isTextual() ? asset.get("name").textValue() : "";
            assets.add(new Asset(type, name, ext, zipPath, i));
        }
        return assets;
    }

    private static String zipPath(JsonNode uri) {
        if (uri == null || !uri.isTextual()) {
            return null;
        }
        String trimmed = uri.textValue().strip();
        for (String prefix : EMBEDDED_PREFIXES) {
            if (trimmed.toLowerCase(Locale.ROOT).startsWith(prefix)) {
                String path = SafeZip.normalize(trimmed.substring(prefix.length()));
                return path == null || path.isEmpty() ? null : path;
            }
        }
        return null;
    }

    /** The first image icon named {@code main}, else the first image icon. */
    private static Asset icon(List<Asset> assets) {
        Asset first = null;
        for (Asset asset : assets) {
            if (asset.type().equals("icon") && IMAGE_EXTENSIONS.contains(asset.ext())) {
                if (asset.name().toLowerCase(Locale.ROOT).equals("main")) {
                    return asset;
                }
                first = first == null ? asset : first;
            }
        }
        return first;
    }

    private static String normalizeExt(String ext) {
        String lower = ext.strip().toLowerCase(Locale.ROOT);
        return lower.startsWith(".") ? lower.substring(1) : lower;
    }

    private static String stripImageExtension(String name, String ext) {
        String lower = name.toLowerCase(Locale.ROOT);
        if (!ext.isEmpty() && lower.endsWith("." + ext)) {
            return name.substring(0, name.length() - ext.length() - 1);
        }
        for (String known : IMAGE_EXTENSIONS) {
            if (lower.endsWith("." + known)) {
                return name.substring(0, name.length() - known.length() - 1);
            }
        }
        return name;
    }

    /** Lower-case, runs of other characters than {@code [a-z0-9]} to the separator, trimmed, sanitized. */
    private static String baseName(String name, String fallback, String separator) {
        String base = name.strip().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", separator);
        base = base.replaceAll("^" + separator + "|" + separator + "$", "");
        String sanitized = Sanitize.filename(base);
        return (sanitized.isEmpty() ? fallback : sanitized).toLowerCase(Locale.ROOT);
    }
}

package tankard.imagemetadata;

import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.image.AverageColor;
import tankard.image.ImageSniff;
import tankard.image.Images;
import tankard.json.JsJson;
import tankard.store.FileTimes;
import tankard.util.Hashes;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;

/**
 * The metadata ST keeps for one image (ST: src/endpoints/image-metadata.js, generateImageMetadata), generated from
 * the file.
 */
final class ImageMetadata {
    private static final String NEUTRAL = "#808080";

    private ImageMetadata() {
    }

    /**
     * {@code {hash, aspectRatio, isAnimated, dominantColor, folderIds: [], addedTimestamp, thumbnailResolution}},
     * or null when the image's size cannot be read (ST then keeps no metadata for it). Blocking.
     */
    static ObjectNode generate(Path file, long thumbnailResolution) throws IOException {
        byte[] data = Files.readAllBytes(file);
        int[] size = Images.dimensions(data);
        if (size == null || size[0] <= 0 || size[1] <= 0) {
            return null;
        }
        boolean animated = ImageSniff.isAnimated(Arrays.copyOf(data, Math.min(data.length, ImageSniff.HEAD_BYTES)));
        BufferedImage image = animated ? null : Images.decode(data);
        BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
        ObjectNode metadata = JsJson.object();
        metadata.put("hash", Hashes.sha256Hex(data));
        // parseFloat(ratio.toFixed(4)): toFixed rounds the exact binary value, halves up.
        metadata.put("aspectRatio", new BigDecimal((double) size[0] / size[1]).setScale(4, RoundingMode.HALF_UP).doubleValue());
        metadata.put("isAnimated", animated);
        metadata.put("dominantColor", image == null ? NEUTRAL : AverageColor.of(image));
        metadata.putArray("folderIds");
        // Node's birthtimeMs, or mtimeMs where the file system keeps no birth time (Java then reports mtime).
        metadata.put("addedTimestamp", (long) Math.floor(FileTimes.millis(attributes.creationTime())));
        metadata.put("thumbnailResolution", thumbnailResolution);
        return metadata;
    }

}

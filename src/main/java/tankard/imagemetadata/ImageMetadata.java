package tankard.imagemetadata;

import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.image.AverageColor;
import tankard.image.ImageSniff;
import tankard.image.Images;
import tankard.json.JsJson;
import tankard.util.Hashes;

import java.awt.image.BufferedImage;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Arrays;

/**
 * The metadata ST keeps for one image (ST: src/endpoints/image-metadata.js, generateImageMetadata), generated from
 * the image's bytes.
 */
final class ImageMetadata {
    private static final String NEUTRAL = "#808080";

    private ImageMetadata() {
    }

    /**
     * {@code {hash, aspectRatio, isAnimated, dominantColor, folderIds: [], addedTimestamp, thumbnailResolution}},
     * or null when the image's size cannot be read (ST then keeps no metadata for it).
     *
     * @param addedMs when the image's file came to be (Node's {@code birthtimeMs})
     */
    static ObjectNode generate(byte[] data, double addedMs, long thumbnailResolution) {
        int[] size = Images.dimensions(data);
        if (size == null || size[0] <= 0 || size[1] <= 0) {
            return null;
        }
        boolean animated = ImageSniff.isAnimated(Arrays.copyOf(data, Math.min(data.length, ImageSniff.HEAD_BYTES)));
        BufferedImage image = animated ? null : Images.decode(data);
        ObjectNode metadata = JsJson.object();
        metadata.put("hash", Hashes.sha256Hex(data));
        // parseFloat(ratio.toFixed(4)): toFixed rounds the exact binary value, halves up.
        metadata.put("aspectRatio", new BigDecimal((double) size[0] / size[1]).setScale(4, RoundingMode.HALF_UP).doubleValue());
        metadata.put("isAnimated", animated);
        metadata.put("dominantColor", image == null ? NEUTRAL : AverageColor.of(image));
        metadata.putArray("folderIds");
        metadata.put("addedTimestamp", (long) Math.floor(addedMs));
        metadata.put("thumbnailResolution", thumbnailResolution);
        return metadata;
    }

}

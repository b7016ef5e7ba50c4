package tankard.image;

import io.vertx.ext.web.FileUpload;
import tankard.core.Refusal;
import tankard.store.AtomicFiles;
import tankard.util.MimeTypes;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;

/**
 * Checks on an uploaded image or video before it is stored, which ST does not make: a size limit, content
 * that really is one of the accepted kinds, and a file name whose type says so (ST lists files by name).
 */
public final class MediaUploads {
    private MediaUploads() {
    }

    /** The uploaded file's temp path, once it passes the checks; otherwise a 413 or 400. Blocking. */
    public static Path check(FileUpload upload, long maxBytes, Set<MediaSniff.Kind> kinds) throws IOException {
        if (upload.size() > maxBytes) {
            throw Refusal.tooLarge("The file is too large: at most " + (maxBytes >> 20) + " MB");
        }
        Path file = Path.of(upload.uploadedFileName());
        MediaSniff.Kind kind = MediaSniff.of(file);
        if (!kinds.contains(kind)) {
            throw Refusal.badRequest(kinds.contains(MediaSniff.Kind.VIDEO) ? "The file is not an image or video" : "The file is not an image");
        }
        String type = MimeTypes.forFileName(upload.fileName());
        String expected = kind == MediaSniff.Kind.IMAGE ? "image/" : "video/";
        if (type == null || !type.startsWith(expected)) {
            throw Refusal.badRequest("The file name must have the extension of " + (kind == MediaSniff.Kind.IMAGE ? "an image" : "a video"));
        }
        return file;
    }

    /** Copies the file to {@code target} atomically (replacing it), creating its folder. Blocking. */
    public static void copy(Path source, Path target) {
        AtomicFiles.write(target, channel -> {
            try (FileChannel in = FileChannel.open(source, StandardOpenOption.READ)) {
                AtomicFiles.transfer(in, in.size(), channel);
            }
        });
    }
}

package tankard.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** A data root as its files, to compare one that went through {@code import-data} and {@code export-data}. */
public final class DataTrees {
    private DataTrees() {
    }

    /**
     * Every file under the folder by its path, as its bytes' SHA-256 and, unless the database keeps it without
     * a time of its own (accounts, groups), its modification time in ms; a node's caches ({@code _cache/}) are
     * no data and not listed. Files are hashed as streams (a 200 MB chat is not read whole).
     */
    public static Map<String, String> tree(Path root) throws IOException {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path file : (Iterable<Path>) walk::iterator) {
                String path = root.relativize(file).toString();
                if (Files.isRegularFile(file) && !path.startsWith("_cache/")) {
                    files.put(path, sha256(file)
                            + (keptWithoutTime(path) ? "" : " " + Files.getLastModifiedTime(file).toMillis()));
                }
            }
        }
        return files;
    }

    /** Whether the database keeps the file's bytes but not its time (an account, a group). */
    private static boolean keptWithoutTime(String path) {
        return path.startsWith("_storage") || path.matches("[^/]+/groups/[^/]+\\.json");
    }

    private static String sha256(Path file) throws IOException {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), sha)) {
            in.transferTo(OutputStream.nullOutputStream());
        }
        return HexFormat.of().formatHex(sha.digest());
    }
}

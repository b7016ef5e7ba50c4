package tankard.extras;

import tankard.store.AtomicFiles;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;

/** Extras' {@code --secure} key: read from {@code api_key.txt}, or made (10 hex characters) and written there. */
public final class ExtrasApiKey {
    private ExtrasApiKey() {
    }

    public static String loadOrCreate(Path file) {
        try {
            if (Files.isRegularFile(file)) {
                String key = Files.readString(file).trim();
                if (!key.isEmpty()) {
                    return key;
                }
            }
            byte[] bytes = new byte[5];
            new SecureRandom().nextBytes(bytes);
            String key = HexFormat.of().formatHex(bytes);
            Files.createDirectories(file.getParent());
            AtomicFiles.write(file, key);
            return key;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read or write the Extras API key " + file, e);
        }
    }
}

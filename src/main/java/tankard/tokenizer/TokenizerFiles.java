package tankard.tokenizer;

import tankard.config.TankardConfig;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the vocabulary files ST ships (and Tankard cannot) are found, first match wins:
 * {@code <dataRoot>/_tokenizers/} (the user's own copies), the {@code src/tokenizers/} folder of the ST
 * install given as {@code --frontend}, and {@code <dataRoot>/_cache/}, where ST keeps the tokenizers it
 * downloaded (command-r, qwen2, nemo, deepseek…). A {@code .gz} copy of a file counts too.
 */
public final class TokenizerFiles {
    private final List<Path> folders;

    public TokenizerFiles(List<Path> folders) {
        this.folders = List.copyOf(folders);
    }

    public static TokenizerFiles of(TankardConfig config) {
        List<Path> folders = new ArrayList<>();
        folders.add(config.dataRoot().resolve("_tokenizers"));
        if (config.stInstall() != null) {
            folders.add(config.stInstall().resolve("src").resolve("tokenizers"));
        }
        folders.add(config.dataRoot().resolve("_cache"));
        return new TokenizerFiles(folders);
    }

    /** The file called {@code name} (or {@code name.gz}), or null when no folder has it. Blocking. */
    public Path find(String name) {
        for (Path folder : folders) {
            for (String candidate : List.of(name, name + ".gz")) {
                Path file = folder.resolve(candidate);
                if (Files.isRegularFile(file)) {
                    return file;
                }
            }
        }
        return null;
    }
}

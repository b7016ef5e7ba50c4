package tankard.character;

import tankard.store.AtomicFiles;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The files an import will write, gathered while the upload is parsed and checked, and written only once
 * everything is known to be good: a bad upload writes nothing.
 */
final class ImportPlan {
    private record Step(Path file, byte[] bytes, boolean replaceSameBase) {
    }

    private final List<Step> steps = new ArrayList<>();

    void write(Path file, byte[] bytes) {
        steps.add(new Step(file, bytes, false));
    }

    /** Writes {@code file} after deleting files in its folder with the same base name (any extension). */
    void replaceSameBase(Path file, byte[] bytes) {
        steps.add(new Step(file, bytes, true));
    }

    /** True when an earlier step of this plan writes {@code file}. */
    boolean writes(Path file) {
        return steps.stream().anyMatch(step -> step.file().equals(file));
    }

    void commit() throws IOException {
        for (Step step : steps) {
            if (step.replaceSameBase()) {
                deleteSameBase(step.file());
            }
            AtomicFiles.write(step.file(), step.bytes());
        }
    }

    private static void deleteSameBase(Path file) throws IOException {
        String base = CardNames.baseName(file.getFileName().toString());
        try (DirectoryStream<Path> siblings = Files.newDirectoryStream(file.getParent())) {
            for (Path sibling : siblings) {
                if (Files.isRegularFile(sibling) && CardNames.baseName(sibling.getFileName().toString()).equals(base)) {
                    Files.delete(sibling);
                }
            }
        } catch (NoSuchFileException e) {
            // nothing to replace yet
        }
    }
}

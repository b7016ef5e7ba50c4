package tankard.character;

import tankard.chat.ChatFolder;
import tankard.chat.ChatStore;
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
 * everything is known to be good: a bad upload writes nothing. Chats go to the user's chat store.
 */
final class ImportPlan {
    @FunctionalInterface
    private interface Step {
        void run() throws IOException;
    }

    private final ChatStore chats;
    private final String user;
    private final List<Step> steps = new ArrayList<>();
    private final List<Path> files = new ArrayList<>();

    ImportPlan(ChatStore chats, String user) {
        this.chats = chats;
        this.user = user;
    }

    void write(Path file, byte[] bytes) {
        files.add(file);
        steps.add(() -> AtomicFiles.write(file, bytes));
    }

    /** Writes {@code file} after deleting files in its folder with the same base name (any extension). */
    void replaceSameBase(Path file, byte[] bytes) {
        files.add(file);
        steps.add(() -> {
            deleteSameBase(file);
            AtomicFiles.write(file, bytes);
        });
    }

    /** Stores a chat of the imported character, replacing one of that name. */
    void writeChat(ChatFolder folder, String name, byte[] chat) {
        steps.add(() -> chats.write(user, folder, name, chat));
    }

    /** True when an earlier step of this plan writes {@code file}. */
    boolean writes(Path file) {
        return files.contains(file);
    }

    void commit() throws IOException {
        for (Step step : steps) {
            step.run();
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

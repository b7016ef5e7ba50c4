package tankard.character;

import tankard.chat.ChatFolder;
import tankard.chat.ChatStore;
import tankard.store.AtomicFiles;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
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
    private final CardStore cards;
    private final Path characters;
    private final String user;
    private final List<Step> steps = new ArrayList<>();
    private final List<Path> files = new ArrayList<>();

    /** @param characters the user's {@code characters} folder, where sprites and card assets go */
    ImportPlan(ChatStore chats, CardStore cards, Path characters, String user) {
        this.chats = chats;
        this.cards = cards;
        this.characters = characters;
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
        checkAssetFolders();
        for (Step step : steps) {
            step.run();
        }
    }

    /**
     * Refuses, before anything is written, a file whose folder in {@code characters} has a card's name
     * ({@code characters/Foo.png/}): on the file store that card file is in the way of the folder, and the store
     * of the cards (the database) is asked too, so that every store gives the same refusal (a 400, FailureHandler).
     */
    private void checkAssetFolders() throws IOException {
        int depth = characters.getNameCount();
        for (Path file : files) {
            if (file.startsWith(characters) && file.getNameCount() > depth + 1) {
                String folder = file.getName(depth).toString();
                if (CardFile.isCardName(folder) && cards.find(user, folder).isPresent()) {
                    throw new NotDirectoryException(characters.resolve(folder).toString());
                }
            }
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

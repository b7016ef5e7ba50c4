package tankard.character;

import tankard.chat.ChatFolder;
import tankard.chat.ChatStore;
import tankard.store.BlobStore;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.NotDirectoryException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The files an import will write, gathered while the upload is parsed and checked, and written only once
 * everything is known to be good: a bad upload writes nothing. Chats go to the user's chat store, the card's assets
 * (sprites, backgrounds, images) to the blob store, by their path in ST's layout.
 */
final class ImportPlan {
    /** The user's folder of cards, and of the characters' sprites in folders of their own. */
    static final String CHARACTERS = "characters";
    /** The user's folder of chat images (ST: src/constants.js, USER_DIRECTORY_TEMPLATE, userImages). */
    static final String USER_IMAGES = "user/images";

    @FunctionalInterface
    private interface Step {
        void run() throws IOException;
    }

    private final ChatStore chats;
    private final CardStore cards;
    private final BlobStore blobs;
    private final String user;
    private final List<Step> steps = new ArrayList<>();
    private final List<String> files = new ArrayList<>();

    ImportPlan(ChatStore chats, CardStore cards, BlobStore blobs, String user) {
        this.chats = chats;
        this.cards = cards;
        this.blobs = blobs;
        this.user = user;
    }

    void write(String path, byte[] bytes) {
        files.add(blob(path));
        steps.add(() -> blobs.write(user, path, new ByteArrayInputStream(bytes)));
    }

    /** Writes the file after deleting the files in its folder with the same base name (any extension). */
    void replaceSameBase(String path, byte[] bytes) {
        files.add(blob(path));
        steps.add(() -> {
            deleteSameBase(path);
            blobs.write(user, path, new ByteArrayInputStream(bytes));
        });
    }

    /** Stores a chat of the imported character, replacing one of that name. */
    void writeChat(ChatFolder folder, String name, byte[] chat) {
        steps.add(() -> chats.write(user, folder, name, chat));
    }

    /** True when an earlier step of this plan writes the file. */
    boolean writes(String path) {
        return files.contains(path);
    }

    /** The names of the files and folders in the folder, as they are before this plan is written. */
    Set<String> names(String folder) {
        Set<String> names = new HashSet<>(blobs.folders(user, folder));
        blobs.list(user, folder).forEach(blob -> names.add(blob.name()));
        return names;
    }

    void commit() throws IOException {
        checkAssetFolders();
        for (Step step : steps) {
            step.run();
        }
    }

    /**
     * The path, when it is one the blob store keeps; else the import is refused (400) before anything is written: a
     * name from the upload that no store can keep as a file of this folder (a backslash, a card's own name).
     */
    private String blob(String path) {
        try {
            return BlobStore.checkBlob(path, blobs::keeps);
        } catch (IllegalArgumentException e) {
            throw new CardFormatException("The upload names a file that cannot be stored: " + path);
        }
    }

    /**
     * Refuses, before anything is written, a file whose folder in {@code characters} has a card's name
     * ({@code characters/Foo.png/}): on the file store that card file is in the way of the folder, and the store
     * of the cards (the database) is asked too, so that every store gives the same refusal (a 400, FailureHandler).
     */
    private void checkAssetFolders() throws IOException {
        for (String file : files) {
            String[] parts = file.split("/");
            if (parts[0].equals(CHARACTERS) && parts.length > 2 && CardFile.isCardName(parts[1])
                    && cards.find(user, parts[1]).isPresent()) {
                throw new NotDirectoryException(CHARACTERS + "/" + parts[1]);
            }
        }
    }

    private void deleteSameBase(String path) {
        String folder = path.substring(0, path.lastIndexOf('/'));
        String base = CardNames.baseName(path.substring(folder.length() + 1));
        for (BlobStore.Entry sibling : blobs.list(user, folder)) {
            if (CardNames.baseName(sibling.name()).equals(base)) {
                blobs.delete(user, sibling.path());
            }
        }
    }
}

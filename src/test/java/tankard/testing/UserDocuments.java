package tankard.testing;

import tankard.store.DocumentStore;
import tankard.user.User;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Listings of the default user's folders with the documents in them wherever the server's {@link DocumentStore} keeps
 * them (on files the files at their paths, on PostgreSQL rows), for tests that check what a request left behind on
 * both storages. Single documents are read and written through {@link UserFiles}.
 */
public final class UserDocuments {
    private UserDocuments() {
    }

    /**
     * The names in a folder of the default user's folder, sorted: its documents as the store lists them and every
     * other entry of the folder on disk (a file that is no document, a temp file left behind). On files exactly the
     * folder's listing on disk.
     */
    public static List<String> folder(TestServer server, String relative) {
        Path dir = server.userDir().resolve(relative);
        List<String> names = new ArrayList<>();
        if (Files.isDirectory(dir)) {
            try (Stream<Path> entries = Files.list(dir)) {
                entries.filter(entry -> !isDocumentFile(relative + "/" + entry.getFileName(), entry))
                        .forEach(entry -> names.add(entry.getFileName().toString()));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        DocumentStore.Folder folder = UserFiles.documentFolder(relative);
        server.documents().list(User.DEFAULT_HANDLE, folder).stream().map(DocumentStore.Entry::name)
                .filter(name -> DocumentStore.isDocument(relative + "/" + name)).forEach(names::add);
        return names.stream().sorted().toList();
    }

    /**
     * Every file under the server's working folder, as paths relative to it, with the default user's documents shown
     * at their place in ST's layout wherever the store keeps them: on files exactly the files on disk
     * ({@link StNames#files}), on PostgreSQL the files on disk and the documents in the database.
     */
    public static Set<Path> all(TestServer server) {
        Path work = server.workDir;
        Path home = server.userDir();
        Set<Path> all = new HashSet<>();
        try (Stream<Path> files = Files.walk(work)) {
            files.filter(Files::isRegularFile)
                    .filter(file -> !(file.startsWith(home) && isDocumentFile(slashed(home.relativize(file)), file)))
                    .forEach(file -> all.add(work.relativize(file)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (DocumentStore.Folder folder : DocumentStore.Folder.values()) {
            Path dir = folder == DocumentStore.Folder.ROOT ? home : home.resolve(folder.stName());
            for (DocumentStore.Entry entry : server.documents().list(User.DEFAULT_HANDLE, folder)) {
                String relative = folder == DocumentStore.Folder.ROOT ? entry.name() : folder.stName() + "/" + entry.name();
                if (DocumentStore.isDocument(relative)) {
                    all.add(work.relativize(dir.resolve(entry.name())));
                }
            }
        }
        return all;
    }

    /** Whether a file on disk is one the file store lists as a document (and so {@link #all} shows through the store). */
    private static boolean isDocumentFile(String relative, Path file) {
        return DocumentStore.isDocument(relative) && Files.isRegularFile(file);
    }

    private static String slashed(Path relative) {
        return relative.toString().replace(java.io.File.separatorChar, '/');
    }
}

package tankard.account;

import tankard.user.KeptData;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * The per-user ZIP of {@code POST /api/users/backup} (ST: src/users.js, createBackupArchive): the whole user folder,
 * dot-files and folders included, symbolic links not followed; API keys left out unless {@code allowKeysExposure}.
 */
public final class BackupArchive {
    private static final Pattern SECRETS_MIGRATION = Pattern.compile("backups/secrets_migration_[^/]*\\.json");
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private BackupArchive() {
    }

    /** {@code <handle>-<local yyyyMMdd-HHmmss>.zip}, the name ST gives the download. */
    public static String fileName(String handle) {
        return handle + "-" + LocalDateTime.now().format(TIMESTAMP) + ".zip";
    }

    /**
     * Streams the archive into {@code out}, which is closed at the end: the folder, then the files the stores keep
     * elsewhere ({@code kept} hands each to its consumer). Blocking.
     */
    public static void write(Path root, Consumer<Consumer<KeptData.File>> kept, boolean includeSecrets,
                             OutputStream out) throws IOException {
        try (ZipOutputStream zip = new ZipOutputStream(out)) {
            if (Files.isDirectory(root)) {
                Files.walkFileTree(root, new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                        if (!dir.equals(root)) {
                            ZipEntry entry = new ZipEntry(name(root, dir) + "/");
                            entry.setLastModifiedTime(attrs.lastModifiedTime());
                            zip.putNextEntry(entry);
                            zip.closeEntry();
                        }
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                        String name = name(root, file);
                        if (attrs.isRegularFile() && (includeSecrets || !isSecret(name))) {
                            ZipEntry entry = new ZipEntry(name);
                            entry.setLastModifiedTime(attrs.lastModifiedTime());
                            zip.putNextEntry(entry);
                            Files.copy(file, zip);
                            zip.closeEntry();
                        }
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFileFailed(Path file, IOException e) {
                        return FileVisitResult.CONTINUE; // deleted or unreadable meanwhile: left out
                    }
                });
            }
            kept.accept(file -> {
                if (includeSecrets || !isSecret(file.path())) {
                    ZipEntry entry = new ZipEntry(file.path());
                    entry.setLastModifiedTime(FileTime.fromMillis((long) file.modifiedMs()));
                    try (InputStream content = file.content().open()) {
                        zip.putNextEntry(entry);
                        content.transferTo(zip);
                        zip.closeEntry();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** The files ST leaves out of backups: the keys file and the copies of it made by its secrets migration. */
    static boolean isSecret(String name) {
        return name.equals("secrets.json") || SECRETS_MIGRATION.matcher(name).matches();
    }

    private static String name(Path root, Path path) {
        return root.relativize(path).toString().replace('\\', '/');
    }
}

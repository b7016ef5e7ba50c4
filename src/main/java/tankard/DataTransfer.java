package tankard;

import com.fasterxml.jackson.databind.node.ObjectNode;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import tankard.json.JsJson;
import tankard.store.AtomicFiles;
import tankard.group.GroupStore;
import tankard.user.AccountStore;
import tankard.user.User;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * Moves a data root's data from one set of stores to another (bin/tankard import-data and export-data): each kind
 * that a store keeps through the stores, byte for byte, and every other file of the data root as a file, so that
 * files → database → files gives the same tree. Every step is idempotent and skips what the target already holds
 * the same, so a run that was cut short finishes when run again.
 */
final class DataTransfer {
    /** Folders of the data root that are a server's own scratch, never user data. */
    private static final Set<String> SCRATCH = Set.of("_uploads", "_cache/tankard-cards", "_cache/vector-scratch");

    private final PrintStream out;

    DataTransfer(PrintStream out) {
        this.out = out;
    }

    /**
     * Copies everything of {@code fromRoot} (read through {@code from}) to {@code toRoot} (written through
     * {@code to}): what the {@code database}'s stores keep through the stores, the rest as files.
     */
    void copy(Stores from, Path fromRoot, Stores to, Path toRoot, Stores database) {
        Set<String> handles = copyAccounts(from.accounts(), to.accounts());
        copyGroups(from.groups(), to.groups(), handles);
        copyFiles(fromRoot, toRoot, database.keptElsewhere(handles));
    }

    /** The accounts; their handles, and the default user's. */
    private Set<String> copyAccounts(AccountStore from, AccountStore to) {
        List<ObjectNode> records = from.records();
        List<String> stored = to.records().stream().map(JsJson::compact).toList();
        Set<String> handles = new TreeSet<>(Set.of(User.DEFAULT_HANDLE)); // there even before it has a record
        try (ProgressBar bar = bar("accounts", records.size())) {
            for (ObjectNode record : records) {
                String text = JsJson.compact(record);
                if (!stored.contains(text)) {
                    to.putRecord(record);
                }
                String handle = record.path("handle").asText();
                handles.add(handle);
                String avatar = from.avatar(handle).orElse("");
                if (!avatar.equals(to.avatar(handle).orElse(""))) {
                    to.saveAvatar(handle, avatar);
                }
                bar.step();
                bar.setExtraMessage(bytes(text.length() + avatar.length()));
            }
        }
        return handles;
    }

    private void copyGroups(GroupStore from, GroupStore to, Set<String> handles) {
        try (ProgressBar bar = bar("groups", handles.size())) {
            long copied = 0;
            for (String handle : handles) {
                Map<String, byte[]> stored = new HashMap<>();
                to.files(handle).forEach(file -> stored.put(file.name(), file.content()));
                for (GroupStore.GroupFile file : from.files(handle)) {
                    if (!Arrays.equals(file.content(), stored.get(file.name()))) {
                        to.putFile(handle, file);
                        copied += file.content().length;
                    }
                }
                bar.step();
                bar.setExtraMessage(bytes(copied));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot copy the groups", e);
        }
    }

    /** Every file under the root but the scratch folders and what the stores keep, with its modification time. */
    private void copyFiles(Path fromRoot, Path toRoot, Predicate<String> storedApart) {
        List<Path> files = new ArrayList<>();
        long total = 0;
        try (Stream<Path> walk = Files.walk(fromRoot)) {
            for (Path file : (Iterable<Path>) walk::iterator) {
                String relative = fromRoot.relativize(file).toString().replace('\\', '/');
                if (Files.isRegularFile(file) && !excluded(relative, storedApart)
                        && !AtomicFiles.isOwnTemp(file.getFileName().toString())) {
                    files.add(file);
                    total += Files.size(file);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list " + fromRoot, e);
        }
        try (ProgressBar bar = bar("files", files.size())) {
            long copied = 0;
            for (Path file : files) {
                copied += copyFile(file, toRoot.resolve(fromRoot.relativize(file)));
                bar.step();
                bar.setExtraMessage(bytes(copied) + " of " + bytes(total));
            }
        }
    }

    private static boolean excluded(String relative, Predicate<String> storedApart) {
        return storedApart.test(relative)
                || SCRATCH.stream().anyMatch(folder -> relative.equals(folder) || relative.startsWith(folder + "/"));
    }

    /** Copies a file atomically unless the target has its size and time already; the bytes copied. */
    private static long copyFile(Path from, Path to) {
        try {
            BasicFileAttributes source = Files.readAttributes(from, BasicFileAttributes.class);
            if (Files.isRegularFile(to)) {
                BasicFileAttributes target = Files.readAttributes(to, BasicFileAttributes.class);
                if (target.size() == source.size() && target.lastModifiedTime().equals(source.lastModifiedTime())) {
                    return 0;
                }
            }
            Files.createDirectories(to.getParent());
            AtomicFiles.write(to, channel -> {
                try (FileChannel in = FileChannel.open(from, StandardOpenOption.READ)) {
                    AtomicFiles.transfer(in, in.size(), channel);
                }
            });
            Files.setLastModifiedTime(to, FileTime.from(source.lastModifiedTime().toInstant()));
            return source.size();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot copy " + from, e);
        }
    }

    private ProgressBar bar(String task, long max) {
        return new ProgressBarBuilder().setTaskName(task).setInitialMax(max).setStyle(ProgressBarStyle.ASCII)
                .setUpdateIntervalMillis(500).setConsumer(new ConsoleProgressBarConsumer(out)).build();
    }

    private static String bytes(long n) {
        return n < 1 << 20 ? (n >> 10) + " KB" : (n >> 20) + " MB";
    }
}

package tankard.util;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;

/**
 * An uploaded ZIP read defensively: a bounded number of entries, entry names that stay inside the archive,
 * and bounded decompressed sizes and compression ratios, enforced while inflating (declared sizes can lie).
 * Any violation is a {@link BadZipException}. Entries are in central-directory order, as yauzl lists them.
 */
public final class SafeZip implements Closeable {
    /** The limits; {@link #DEFAULT} suits character archives. */
    public record Limits(int maxEntries, long maxTotalBytes, long maxEntryBytes, int maxRatio, long ratioFloorBytes) {
    }

    public static final Limits DEFAULT = new Limits(10_000, 512L << 20, 256L << 20, 100, 1L << 20);

    /** A ZIP that is malformed or looks hostile. */
    public static final class BadZipException extends RuntimeException {
        public BadZipException(String message) {
            super(message, null, false, false);
        }
    }

    private final ZipFile zip;
    private final Limits limits;
    private final List<ZipEntry> entries;
    private long inflated;

    private SafeZip(ZipFile zip, Limits limits, List<ZipEntry> entries) {
        this.zip = zip;
        this.limits = limits;
        this.entries = entries;
    }

    /** Opens and checks the archive's directory. Blocking. */
    public static SafeZip open(Path file, Limits limits) throws IOException {
        ZipFile zip;
        try {
            zip = new ZipFile(file.toFile());
        } catch (ZipException e) {
            throw new BadZipException("Not a valid ZIP archive");
        }
        try {
            List<ZipEntry> entries = new ArrayList<>();
            long declared = 0;
            Enumeration<? extends ZipEntry> all = zip.entries();
            while (all.hasMoreElements()) {
                ZipEntry entry = all.nextElement();
                if (entries.size() >= limits.maxEntries()) {
                    throw new BadZipException("The archive has more than " + limits.maxEntries() + " entries");
                }
                if (normalize(entry.getName()) == null) {
                    throw new BadZipException("The archive has an entry outside its root: " + entry.getName());
                }
                declared += Math.max(0, entry.getSize());
                checkSize(entry, Math.max(0, entry.getSize()), declared, limits);
                entries.add(entry);
            }
            return new SafeZip(zip, limits, Collections.unmodifiableList(entries));
        } catch (RuntimeException e) {
            zip.close();
            throw e;
        }
    }

    /**
     * The first file entry whose name ends with {@code suffix} and that is not under {@code __MACOSX}
     * (ST's lookup), or null.
     */
    public byte[] readEndingWith(String suffix) throws IOException {
        for (ZipEntry entry : entries) {
            if (!entry.isDirectory() && entry.getName().endsWith(suffix) && !entry.getName().startsWith("__MACOSX")) {
                return read(entry);
            }
        }
        return null;
    }

    /** The file entry whose normalized name is {@code path}, or null. */
    public byte[] readExact(String path) throws IOException {
        for (ZipEntry entry : entries) {
            if (!entry.isDirectory() && path.equals(normalize(entry.getName()))) {
                return read(entry);
            }
        }
        return null;
    }

    /** The file (not folder) entries, in central-directory order. */
    public List<ZipEntry> files() {
        return entries.stream().filter(entry -> !entry.isDirectory()).toList();
    }

    /** The bytes of one of this archive's entries, inflated within the limits. */
    public byte[] read(ZipEntry entry) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[64 * 1024];
        long size = 0;
        try (InputStream in = zip.getInputStream(entry)) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                size += n;
                inflated += n;
                checkSize(entry, size, inflated, limits);
                out.write(buffer, 0, n);
            }
        } catch (ZipException e) {
            throw new BadZipException("Corrupt ZIP entry " + entry.getName() + ": " + e.getMessage());
        }
        return out.toByteArray();
    }

    private static void checkSize(ZipEntry entry, long size, long total, Limits limits) {
        if (size > limits.maxEntryBytes() || total > limits.maxTotalBytes()) {
            throw new BadZipException("The archive is too large when unpacked");
        }
        long compressed = entry.getCompressedSize();
        if (size > limits.ratioFloorBytes() && compressed >= 0 && size > compressed * limits.maxRatio()) {
            throw new BadZipException("The archive entry " + entry.getName() + " is compressed suspiciously well (zip bomb?)");
        }
    }

    /**
     * ST's ZIP path normalization: backslashes to slashes, leading {@code ./} and {@code /} dropped, dot
     * segments resolved. Null for a path that escapes the root.
     */
    public static String normalize(String name) {
        String path = name.replace('\\', '/').strip();
        List<String> segments = new ArrayList<>();
        for (String segment : path.split("/")) {
            if (segment.isEmpty() || segment.equals(".")) {
                continue;
            }
            if (segment.equals("..")) {
                if (segments.isEmpty()) {
                    return null;
                }
                segments.remove(segments.size() - 1);
            } else {
                segments.add(segment);
            }
        }
        return String.join("/", segments);
    }

    @Override
    public void close() throws IOException {
        zip.close();
    }
}

package tankard.chat;

/** A stored chat (or chat backup) file: its name with extension, size and mtime (epoch ms with fraction). */
public record ChatFile(String name, long size, double modifiedMs) {
    /** The name without its extension, as Node's {@code path.parse(name).name}. */
    public String id() {
        int dot = name.lastIndexOf('.');
        return dot > 0 ? name.substring(0, dot) : name;
    }

    /** ST lists only names whose extension is exactly ".jsonl". */
    static boolean isChatName(String name) {
        return name.endsWith(".jsonl") && name.lastIndexOf('.') > 0;
    }
}

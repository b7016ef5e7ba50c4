package tankard.tokenizer;

/** DJL's native tokenizer libraries come from their jars; this keeps DJL from ever trying to download one. */
public final class NativeLibraries {
    private NativeLibraries() {
    }

    public static void stayOffline() {
        if (System.getProperty("ai.djl.offline") == null) {
            System.setProperty("ai.djl.offline", "true");
        }
    }
}

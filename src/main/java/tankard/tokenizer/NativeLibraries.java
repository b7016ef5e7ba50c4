package tankard.tokenizer;

/** DJL's native tokenizer libraries come from their jars; this keeps DJL from ever trying to download one. */
final class NativeLibraries {
    private NativeLibraries() {
    }

    static void stayOffline() {
        if (System.getProperty("ai.djl.offline") == null) {
            System.setProperty("ai.djl.offline", "true");
        }
    }
}

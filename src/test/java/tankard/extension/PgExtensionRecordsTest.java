package tankard.extension;

import org.junit.jupiter.api.Test;

import tankard.testing.ScratchDatabase;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PgExtensionRecordsTest {
    private static final ExtensionRecords.Checkout V1 = new ExtensionRecords.Checkout("http://git/x", "main", "a".repeat(40));
    private static final ExtensionRecords.Checkout V2 = new ExtensionRecords.Checkout("http://git/x", "dev", "b".repeat(40));

    @Test
    void recordsKeepTheLatestCheckoutARemovalAndForgetAScope() {
        try (ScratchDatabase pg = new ScratchDatabase()) {
            ExtensionRecords records = new PgExtensionRecords(pg.db);
            records.installed("alice", "x", V1);
            records.installed("alice", "x", V2);
            records.installed(ExtensionRecords.GLOBAL, "y", V1);
            records.removed(ExtensionRecords.GLOBAL, "y");
            assertEquals(List.of(new ExtensionRecords.Extension("x", V2, false)), records.extensions("alice"));
            assertEquals(List.of(new ExtensionRecords.Extension("y", V1, true)), records.extensions(ExtensionRecords.GLOBAL));
            records.installed(ExtensionRecords.GLOBAL, "y", V2);
            assertEquals(List.of(new ExtensionRecords.Extension("y", V2, false)), records.extensions(ExtensionRecords.GLOBAL),
                    "installed again after its removal");
            records.forgetAll("alice");
            assertEquals(List.of(), records.extensions("alice"));
            assertEquals(1, records.extensions(ExtensionRecords.GLOBAL).size(), "other scopes stay");
        }
    }
}

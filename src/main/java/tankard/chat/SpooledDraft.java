package tankard.chat;

import tankard.store.SpoolFile;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;

/** A draft whose body goes to a file of its own until the commit makes it a chat. */
abstract class SpooledDraft implements ChatStore.Draft {
    final SpoolFile spool;

    SpooledDraft(SpoolFile spool) {
        this.spool = spool;
    }

    @Override
    public OutputStream out() {
        return spool.out();
    }

    @Override
    public InputStream written() throws IOException {
        spool.out().flush();
        return Files.newInputStream(spool.path());
    }

    @Override
    public void restart() throws IOException {
        spool.restart();
    }
}

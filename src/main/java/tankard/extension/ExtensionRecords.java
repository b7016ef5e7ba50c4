package tankard.extension;

import java.util.List;

/**
 * Which third-party extensions are installed, recorded where every node sees it (the database), so that a node
 * brings its own extension folders to the recorded checkouts and deletes what was removed elsewhere. Keyed by
 * scope: {@link #GLOBAL} or a user's handle. Blocking.
 */
public interface ExtensionRecords {
    /** The scope of the global extensions folder. */
    String GLOBAL = "";

    /** One node, on files: its folders are the only record. */
    ExtensionRecords NONE = new ExtensionRecords() {
        @Override
        public List<Extension> extensions(String scope) {
            return List.of();
        }

        @Override
        public void installed(String scope, String name, Checkout checkout) {
        }

        @Override
        public void removed(String scope, String name) {
        }

        @Override
        public void forgetAll(String scope) {
        }
    };

    /** What a checkout is at: where it came from, its branch (empty when detached) and its commit. */
    record Checkout(String url, String branch, String commit) {
    }

    /** An extension folder as recorded: its checkout, or (with {@code removed}) none any more. */
    record Extension(String name, Checkout checkout, boolean removed) {
    }

    /** The extensions of the scope, the removed ones included. */
    List<Extension> extensions(String scope);

    /** Records the folder's checkout, as it is after an install, update, branch switch or move. */
    void installed(String scope, String name, Checkout checkout);

    /** Records that the folder was deleted (or moved away). */
    void removed(String scope, String name);

    /** Drops every record of the scope (a user erased). */
    void forgetAll(String scope);
}

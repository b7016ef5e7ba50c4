package tankard.content;

import tankard.config.TankardConfig;
import tankard.user.UserDirs;

import java.util.Set;

/**
 * Copies default content into the data root and into user folders (st-data.md §1.6). Blocking.
 * TODO(seeding): implement ST's index.json algorithm and Tankard's own default content.
 */
public final class ContentSeeder {
    private final TankardConfig config;

    public ContentSeeder(TankardConfig config) {
        this.config = config;
    }

    /** Global content: error pages and user.css under the data root. */
    public void seedGlobal() {
    }

    /**
     * A user's default content. Items already in the user's content.log are skipped unless their type is
     * in {@code forcedTypes}; existing files are never overwritten.
     */
    public void seedUser(UserDirs dirs, Set<String> forcedTypes) {
    }
}

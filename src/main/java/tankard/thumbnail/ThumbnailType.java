package tankard.thumbnail;

import tankard.config.TankardConfig;
import tankard.user.UserDirs;

import java.nio.file.Path;
import java.util.function.Function;

/** The three thumbnail kinds: where their originals are, where their thumbnails are cached, and their size. */
public enum ThumbnailType {
    BG("bg", "backgrounds", UserDirs::thumbnailsBg, TankardConfig.Thumbnails::bg),
    AVATAR("avatar", "characters", UserDirs::thumbnailsAvatar, TankardConfig.Thumbnails::avatar),
    PERSONA("persona", "User Avatars", UserDirs::thumbnailsPersona, TankardConfig.Thumbnails::persona);

    private final String id;
    private final String originals;
    private final Function<UserDirs, Path> cache;
    private final Function<TankardConfig.Thumbnails, int[]> dimensions;

    ThumbnailType(String id, String originals, Function<UserDirs, Path> cache,
                  Function<TankardConfig.Thumbnails, int[]> dimensions) {
        this.id = id;
        this.originals = originals;
        this.cache = cache;
        this.dimensions = dimensions;
    }

    /** The type named {@code bg}, {@code avatar} or {@code persona} in requests; null for anything else. */
    public static ThumbnailType of(String id) {
        for (ThumbnailType type : values()) {
            if (type.id.equals(id)) {
                return type;
            }
        }
        return null;
    }

    /** The path (from the user's folder) of the image a thumbnail of this type is made of. */
    public String original(String file) {
        return originals + "/" + file;
    }

    public Path cacheFolder(UserDirs dirs) {
        return cache.apply(dirs);
    }

    /** The configured {width, height}: the exact size for avatars/personas, the pixel area for backgrounds. */
    public int[] dimensions(TankardConfig.Thumbnails config) {
        return dimensions.apply(config);
    }
}

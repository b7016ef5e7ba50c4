package tankard.chat;

import tankard.util.Sanitize;

/**
 * Where a chat lives: a character's chat folder ({@code chats/<name>/}; the empty name is {@code chats/}
 * itself, home of loose chats) or the flat group chat folder ({@code group chats/}).
 */
public record ChatFolder(boolean group, String character) {
    public ChatFolder {
        if (!group && !character.isEmpty() && !Sanitize.isSafeSegment(character)) {
            throw new IllegalArgumentException("Not a chat folder name: " + character);
        }
    }

    public static ChatFolder character(String name) {
        return new ChatFolder(false, name);
    }

    public static ChatFolder groups() {
        return new ChatFolder(true, "");
    }

    /**
     * The chat folder of a character card: its file name with the first ".png" removed, ST's
     * {@code String(avatar_url).replace('.png', '')} (src/endpoints/chats.js, the /get and /save routes).
     */
    public static String nameOf(String avatar) {
        int png = avatar.indexOf(".png");
        String name = png < 0 ? avatar : avatar.substring(0, png) + avatar.substring(png + 4);
        return name.equals(".") ? "" : name; // path.join(chats, ".") is the chats folder itself
    }

    @Override
    public String toString() {
        return group ? "group chats" : "chats/" + character;
    }
}

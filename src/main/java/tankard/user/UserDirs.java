package tankard.user;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** A user's data folder and ST's exact layout inside it (ST: src/constants.js, USER_DIRECTORY_TEMPLATE). */
public record UserDirs(Path root) {
    public static UserDirs of(Path dataRoot, String handle) {
        return new UserDirs(dataRoot.resolve(handle));
    }

    /**
     * The handle of the user whose folder this is ({@link #of} names the folder so), for the stores keyed by user
     * that code still handed a {@code UserDirs} calls.
     */
    public String handle() {
        return root.getFileName().toString();
    }

    public Path settingsFile() { return root.resolve("settings.json"); }
    public Path contentLog() { return root.resolve("content.log"); }
    public Path characters() { return root.resolve("characters"); }
    public Path chats() { return root.resolve("chats"); }
    public Path groups() { return root.resolve("groups"); }
    public Path groupChats() { return root.resolve("group chats"); }
    public Path worlds() { return root.resolve("worlds"); }
    public Path backgrounds() { return root.resolve("backgrounds"); }
    public Path avatars() { return root.resolve("User Avatars"); }
    public Path user() { return root.resolve("user"); }
    public Path userImages() { return root.resolve("user/images"); }
    public Path userFiles() { return root.resolve("user/files"); }
    public Path comfyWorkflows() { return root.resolve("user/workflows"); }
    public Path thumbnails() { return root.resolve("thumbnails"); }
    public Path thumbnailsBg() { return root.resolve("thumbnails/bg"); }
    public Path thumbnailsAvatar() { return root.resolve("thumbnails/avatar"); }
    public Path thumbnailsPersona() { return root.resolve("thumbnails/persona"); }
    public Path koboldSettings() { return root.resolve("KoboldAI Settings"); }
    public Path novelSettings() { return root.resolve("NovelAI Settings"); }
    public Path openAiSettings() { return root.resolve("OpenAI Settings"); }
    public Path textGenSettings() { return root.resolve("TextGen Settings"); }
    public Path instruct() { return root.resolve("instruct"); }
    public Path context() { return root.resolve("context"); }
    public Path sysprompt() { return root.resolve("sysprompt"); }
    public Path reasoning() { return root.resolve("reasoning"); }
    public Path themes() { return root.resolve("themes"); }
    public Path movingUi() { return root.resolve("movingUI"); }
    public Path quickReplies() { return root.resolve("QuickReplies"); }
    public Path extensions() { return root.resolve("extensions"); }
    public Path assets() { return root.resolve("assets"); }
    public Path vectors() { return root.resolve("vectors"); }
    public Path backups() { return root.resolve("backups"); }

    /** Every folder ST creates for a user at start-up and at account creation. */
    public List<Path> allFolders() {
        return List.of(characters(), chats(), groups(), groupChats(), worlds(), backgrounds(), avatars(), user(),
                userImages(), userFiles(), comfyWorkflows(), thumbnails(), thumbnailsBg(), thumbnailsAvatar(),
                thumbnailsPersona(), koboldSettings(), novelSettings(), openAiSettings(), textGenSettings(), instruct(),
                context(), sysprompt(), reasoning(), themes(), movingUi(), quickReplies(), extensions(), assets(),
                vectors(), backups());
    }

    /** Creates the missing folders; existing ones and their files are left as they are. Blocking. */
    public void createAll() {
        try {
            for (Path dir : allFolders()) {
                Files.createDirectories(dir);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create the folders of " + root, e);
        }
    }
}

package tankard.engine.prompt;

import tankard.json.Js;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * ST: public/scripts/openai.js parseExampleIntoIndividual: one example dialogue block cut into messages at the
 * lines that start with a speaker's name, each with that name taken off its first line.
 */
public final class ExampleDialogue {
    private ExampleDialogue() {
    }

    /** One message: its text and ST's {@code example_user} or {@code example_assistant}. */
    public record Message(String content, String name) {
        public boolean fromUser() {
            return name.equals(USER);
        }
    }

    private static final String USER = "example_user";
    private static final String ASSISTANT = "example_assistant";

    /**
     * @param groupNames     the group's members' names (empty outside a group): their lines are the character's
     * @param namesInContent whether each message keeps its speaker's name in front (ST: in a group)
     */
    public static List<Message> parse(String block, String name1, String name2, List<String> groupNames,
                                      boolean namesInContent) {
        List<String> groupBotNames = groupNames.stream().map(name -> name + ":").toList();
        List<Message> result = new ArrayList<>();
        String[] lines = block.split("\n", -1);
        List<String> current = new ArrayList<>();
        boolean inUser = false;
        boolean inBot = false;
        String botName = name2;
        for (int i = 1; i < lines.length; i++) {
            String line = lines[i];
            if (line.startsWith(name1 + ":")) {
                inUser = true;
                if (inBot) {
                    result.add(message(current, botName, ASSISTANT, namesInContent));
                }
                inBot = false;
            } else if (line.startsWith(name2 + ":") || groupBotNames.stream().anyMatch(line::startsWith)) {
                if (!line.startsWith(name2 + ":") && !groupBotNames.isEmpty()) {
                    botName = line.split(":", -1)[0];
                }
                inBot = true;
                if (inUser) {
                    result.add(message(current, name1, USER, namesInContent));
                }
                inUser = false;
            }
            current.add(line);
        }
        if (inUser) {
            result.add(message(current, name1, USER, namesInContent));
        } else if (inBot) {
            result.add(message(current, botName, ASSISTANT, namesInContent));
        }
        return result;
    }

    /** ST's add_msg: the lines joined, the speaker's first "name:" removed, trimmed. */
    private static Message message(List<String> lines, String speaker, String role, boolean nameInContent) {
        String parsed = Js.trim(String.join("\n", lines).replaceFirst(Pattern.quote(speaker + ":"),
                Matcher.quoteReplacement("")));
        lines.clear();
        return new Message(nameInContent ? speaker + ": " + parsed : parsed, role);
    }
}

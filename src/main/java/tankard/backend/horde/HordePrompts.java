package tankard.backend.horde;

import java.util.regex.Pattern;

/**
 * ST's optional clean-up of Stable Horde image prompts (from KoboldAI Lite): words that get prompts flagged are
 * swapped for neutral ones or removed, matched as whole words in any case.
 */
final class HordePrompts {
    private record Rule(Pattern words, String replacement) {
        Rule(String words, String replacement) {
            this(Pattern.compile("\\b(" + words + ")\\b", Pattern.CASE_INSENSITIVE), replacement);
        }
    }

    private static final Rule[] RULES = {
            new Rule("girl", "woman"),
            new Rule("boy", "man"),
            new Rule("girls", "women"),
            new Rule("boys", "men"),
            new Rule("under.age|under.aged|underage|underaged|loli|pedo|pedophile|(\\w+).year.old|(\\w+).years.old"
                    + "|minor|prepubescent|minors|shota", ""),
            new Rule("youngster|infant|baby|toddler|child|teen|kid|kiddie|kiddo|teenager|student|preteen|pre.teen",
                    "person"),
            new Rule("young|younger|youthful|youth|small|smaller|smallest|girly|boyish|lil|tiny|teenaged|lit[tl]le"
                    + "|school.aged|school|highschool|kindergarten|teens|children|kids", ""),
    };

    private HordePrompts() {
    }

    static String sanitize(String prompt) {
        for (Rule rule : RULES) {
            prompt = rule.words().matcher(prompt).replaceAll(rule.replacement());
        }
        return prompt;
    }
}

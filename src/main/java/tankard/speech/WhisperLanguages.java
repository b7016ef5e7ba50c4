package tankard.speech;

import tankard.core.Refusal;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Whisper's languages, by code and by English name (with Whisper's aliases), as the pipeline's {@code language}
 * takes them (sillytavern-transformers, src/tokenizers.js, WhisperTokenizer.get_decoder_prompt_ids).
 */
final class WhisperLanguages {
    private static final String CODES = "en english,zh chinese,de german,es spanish,ru russian,ko korean,fr french,"
            + "ja japanese,pt portuguese,tr turkish,pl polish,ca catalan,nl dutch,ar arabic,sv swedish,it italian,"
            + "id indonesian,hi hindi,fi finnish,vi vietnamese,he hebrew,uk ukrainian,el greek,ms malay,cs czech,"
            + "ro romanian,da danish,hu hungarian,ta tamil,no norwegian,th thai,ur urdu,hr croatian,bg bulgarian,"
            + "lt lithuanian,la latin,mi maori,ml malayalam,cy welsh,sk slovak,te telugu,fa persian,lv latvian,"
            + "bn bengali,sr serbian,az azerbaijani,sl slovenian,kn kannada,et estonian,mk macedonian,br breton,"
            + "eu basque,is icelandic,hy armenian,ne nepali,mn mongolian,bs bosnian,kk kazakh,sq albanian,sw swahili,"
            + "gl galician,mr marathi,pa punjabi,si sinhala,km khmer,sn shona,yo yoruba,so somali,af afrikaans,"
            + "oc occitan,ka georgian,be belarusian,tg tajik,sd sindhi,gu gujarati,am amharic,yi yiddish,lo lao,"
            + "uz uzbek,fo faroese,ht haitian creole,ps pashto,tk turkmen,nn nynorsk,mt maltese,sa sanskrit,"
            + "lb luxembourgish,my myanmar,bo tibetan,tl tagalog,mg malagasy,as assamese,tt tatar,haw hawaiian,"
            + "ln lingala,ha hausa,ba bashkir,jw javanese,su sundanese";
    private static final String ALIASES = "burmese my,valencian ca,flemish nl,haitian ht,letzeburgesch lb,pushto ps,"
            + "panjabi pa,moldavian ro,moldovan ro,sinhalese si,castilian es";
    private static final Map<String, String> BY_CODE = new HashMap<>();
    private static final Map<String, String> BY_NAME = new HashMap<>();

    static {
        for (String entry : CODES.split(",")) {
            int space = entry.indexOf(' ');
            BY_CODE.put(entry.substring(0, space), entry.substring(space + 1));
            BY_NAME.put(entry.substring(space + 1), entry.substring(0, space));
        }
        for (String entry : ALIASES.split(",")) {
            int space = entry.lastIndexOf(' ');
            BY_NAME.put(entry.substring(0, space), entry.substring(space + 1));
        }
    }

    private WhisperLanguages() {
    }

    /**
     * The code of a language given by code or name, any case ("en", "English"); null for none (detected). A 400
     * for one Whisper does not know (ST fails the request).
     */
    static String code(String language) {
        if (language == null || language.isEmpty()) {
            return null;
        }
        String lower = language.toLowerCase(Locale.ROOT);
        String code = BY_NAME.containsKey(lower) ? BY_NAME.get(lower) : BY_CODE.containsKey(lower) ? lower : null;
        if (code == null) {
            throw Refusal.badRequest("Language \"" + language + "\" is not supported: give one of Whisper's language"
                    + " codes (\"en\", \"de\", ...) or names (\"english\", ...)");
        }
        return code;
    }
}

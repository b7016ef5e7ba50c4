package tankard.engine.worldinfo;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A text's index finds a key where String.indexOf does, from any place. */
class TextIndexTest {
    private static String random(Random random, int length, String alphabet) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < length; i++) {
            text.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return text.toString();
    }

    @Test
    void findsEveryKeyWhereIndexOfDoes() {
        Random random = new Random(5);
        String alphabet = "abc \n\u0001é🍺".replace("🍺", "\ud83c\udf7a"); // few letters: many repeats and near misses
        for (int round = 0; round < 300; round++) {
            String text = random(random, random.nextInt(400), alphabet);
            TextIndex index = new TextIndex(text);
            for (int k = 0; k < 40; k++) {
                int start = text.isEmpty() ? 0 : random.nextInt(text.length());
                String key = random.nextBoolean() && !text.isEmpty() // a piece of the text, or any
                        ? text.substring(start, Math.min(text.length(), start + 1 + random.nextInt(8)))
                        : random(random, 1 + random.nextInt(7), alphabet);
                int from = random.nextInt(text.length() + 2) - 1;
                assertEquals(text.indexOf(key, from), index.indexOf(key, from), "\"" + key + "\" from " + from + " in \"" + text + "\"");
            }
        }
    }

    @Test
    void aKeyLongerThanTheTextOrAtItsVeryEndIsFoundAsIndexOfFindsIt() {
        TextIndex index = new TextIndex("the river gate");
        assertEquals(10, index.indexOf("gate", 0));
        assertEquals(-1, index.indexOf("gate", 11));
        assertEquals(-1, index.indexOf("the river gate, again", 0));
        assertEquals(0, index.indexOf("th", 0));
    }
}

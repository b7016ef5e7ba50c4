package tankard.util;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class FileNamesTest {
    @Test
    void byteOrderIsTheOrderOfTheUtf8Bytes() {
        List<String> names = new ArrayList<>(List.of("b.png", "a.png", "a", "", "A.png", "é.png", "\uffff.png",
                "\ue000x", "\ud83d\ude00.png", "\ud83d\ude01", "\ud7ff", "a\ud83d\ude00", "a\uffff", "card00010.png",
                "card0001.png", "card00002.png"));
        List<String> byBytes = new ArrayList<>(names);
        byBytes.sort((x, y) -> Arrays.compareUnsigned(x.getBytes(StandardCharsets.UTF_8), y.getBytes(StandardCharsets.UTF_8)));
        names.sort(FileNames.BYTE_ORDER);
        assertEquals(byBytes, names);
    }
}

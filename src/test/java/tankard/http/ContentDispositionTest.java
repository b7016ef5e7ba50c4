package tankard.http;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The header npm content-disposition 0.5.4 gives (outputs taken from it under Node). */
class ContentDispositionTest {
    @Test
    void quotesLatin1NamesAndAddsAnExtendedNameForTheRest() {
        assertEquals("attachment; filename=\"chat_a.jsonl\"", ContentDisposition.attachment("chat_a.jsonl"));
        assertEquals("attachment; filename=\"chat_ünï cöde.jsonl\"", ContentDisposition.attachment("chat_ünï cöde.jsonl"));
        assertEquals("attachment; filename=\"chat_it's (1)*.jsonl\"", ContentDisposition.attachment("chat_it's (1)*.jsonl"));
        assertEquals("attachment; filename=\"chat_a\\\"b\\\\c.jsonl\"", ContentDisposition.attachment("chat_a\"b\\c.jsonl"));
        assertEquals("attachment; filename=\"chat_??.jsonl\"; filename*=UTF-8''chat_%E6%97%A5%E6%9C%AC.jsonl",
                ContentDisposition.attachment("chat_日本.jsonl"));
        assertEquals("attachment; filename=\"chat_??.jsonl\"; filename*=UTF-8''chat_%F0%9F%98%80.jsonl",
                ContentDisposition.attachment("chat_😀.jsonl"), "one ? per UTF-16 unit, as in JavaScript");
        assertEquals("attachment; filename=\"chat_?x.jsonl\"; filename*=UTF-8''chat_%C2%85x.jsonl",
                ContentDisposition.attachment("chat_\u0085x.jsonl"), "C1 controls are not Latin-1 text");
        assertEquals("attachment; filename=\"chat_%41.jsonl\"; filename*=UTF-8''chat_%2541.jsonl",
                ContentDisposition.attachment("chat_%41.jsonl"), "a name that looks percent-encoded");
    }
}

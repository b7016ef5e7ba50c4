package tankard.engine.openai;

/** A message or a collection of them in a chat completion (ST's Message and MessageCollection). */
interface ChatItem {
    String identifier();

    int tokens();
}

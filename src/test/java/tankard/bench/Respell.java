package tankard.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.character.CardCodec;
import tankard.character.CardWriter;
import tankard.json.JsJson;
import tankard.testing.Spelling;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Copies a data folder with its chats and cards spelled as Python's {@code json.dumps} writes JSON
 * ({@link Spelling#PYTHON}). The values stay the same, so ST and Tankard answer the same bytes for both copies; only
 * the files' spelling differs (see bench/README.md, {@code spellings.sh}). Usage: {@code Respell FROM TO}, folders or files; other files are copied as they are.
 */
public final class Respell {
    private Respell() {
    }

    public static void main(String[] args) throws IOException {
        Path from = Path.of(args[0]);
        Path to = Path.of(args[1]);
        List<Path> files;
        try (Stream<Path> walk = Files.walk(from)) {
            files = walk.filter(Files::isRegularFile).toList();
        }
        for (Path file : files) {
            Path copy = to.resolve(from.relativize(file).toString());
            Files.createDirectories(copy.getParent());
            String name = file.getFileName().toString();
            if (name.endsWith(".jsonl")) {
                respellLines(file, copy);
            } else if (name.endsWith(".png") && file.getParent().getFileName().toString().equals("characters")) {
                byte[] png = Files.readAllBytes(file);
                ObjectNode card = (ObjectNode) JsJson.parse(CardCodec.readPngText(png));
                ObjectNode v3 = card.deepCopy().put("spec", "chara_card_v3").put("spec_version", "3.0");
                Files.write(copy, CardWriter.write(png, Spelling.PYTHON.spell(card), Spelling.PYTHON.spell(v3)));
            } else {
                Files.copy(file, copy);
            }
        }
    }

    private static void respellLines(Path file, Path copy) throws IOException {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8);
             BufferedWriter out = Files.newBufferedWriter(copy, StandardCharsets.UTF_8)) {
            String separator = "";
            for (String line; (line = in.readLine()) != null; separator = "\n") {
                out.write(separator);
                out.write(line.isBlank() ? line : Spelling.PYTHON.spell(line));
            }
        }
    }
}

package tankard.vector.store;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.JsJson;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * Vectra's {@code index.json} ({@code {"version":1,"metadata_config":{},"items":[{id, metadata, vector, norm}]}},
 * written compact as {@code JSON.stringify} does; ST: vectra's LocalIndex), read and written as a stream so that an
 * index of any size is never one string in memory. The journal's lines use the same item shape.
 */
final class VectraCodec {
    private VectraCodec() {
    }

    static final byte[] EMPTY_INDEX = "{\"version\":1,\"metadata_config\":{},\"items\":[]}"
            .getBytes(java.nio.charset.StandardCharsets.UTF_8);

    /** Jackson for streams: a tree read from the middle of one has more after it. */
    private static final ObjectMapper STREAMS = JsJson.MAPPER.copy()
            .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);

    /** What an index holds besides its items. */
    record Header(JsonNode version, JsonNode metadataConfig) {
        static final Header EMPTY = new Header(JsJson.MAPPER.getNodeFactory().numberNode(1), JsJson.object());
    }

    static JsonParser parser(byte[] content, int offset, int length) throws IOException {
        return STREAMS.createParser(content, offset, length);
    }

    static JsonGenerator generator(OutputStream out) throws IOException {
        return STREAMS.createGenerator(out);
    }

    /** What a new index holds before its items ({@code …"items":[}) and after them ({@code ]}}), as Vectra writes it. */
    static final byte[] EMPTY_HEAD = Arrays.copyOf(EMPTY_INDEX, EMPTY_INDEX.length - 2);
    static final byte[] EMPTY_TAIL = {']', '}'};

    /** An item as the bytes of its JSON, with where its vector's array is in them ({@code [from, to)}). */
    record ItemJson(byte[] bytes, int vectorFrom, int vectorTo) {
    }

    /** An item's JSON exactly as {@link #write(OutputStream, Header, int, ItemAt)} writes it into an index. */
    static ItemJson itemJson(VectorItem item) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(64 + 12 * item.vector().length);
        int from;
        int to;
        try (JsonGenerator json = STREAMS.createGenerator(out)) {
            json.writeStartObject();
            json.writeStringField("id", item.id());
            json.writeFieldName("metadata");
            json.writeTree(item.metadata());
            json.writeArrayFieldStart("vector");
            json.flush();
            from = out.size() - 1;
            writeVector(json, item.vector());
            json.flush();
            to = out.size();
            writeNorm(json, item.norm());
            json.writeEndObject();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return new ItemJson(out.toByteArray(), from, to);
    }

    /** An item read from its JSON bytes, and where its vector's array is in them. */
    record ParsedItem(VectorItem item, int vectorFrom, int vectorTo) {
    }

    /** Reads one item's JSON (one object, nothing after it). */
    static ParsedItem parseItem(byte[] json) throws IOException {
        try (JsonParser parser = STREAMS.createParser(json)) {
            expect(parser.nextToken(), JsonToken.START_OBJECT);
            String id = null;
            ObjectNode metadata = null;
            float[] vector = null;
            int from = -1;
            int to = -1;
            double norm = Double.NaN;
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                switch (field) {
                    case "id" -> id = parser.getValueAsString();
                    case "metadata" -> {
                        expect(value, JsonToken.START_OBJECT);
                        metadata = parser.readValueAsTree();
                    }
                    case "vector" -> {
                        from = (int) parser.currentTokenLocation().getByteOffset();
                        vector = vector(parser);
                        to = (int) parser.currentTokenLocation().getByteOffset() + 1;
                    }
                    case "norm" -> norm = value.isNumeric() ? parser.getDoubleValue() : Double.NaN;
                    default -> parser.skipChildren();
                }
            }
            expect(parser.currentToken(), JsonToken.END_OBJECT);
            if (parser.nextToken() != null) {
                throw new IOException("more after an item");
            }
            if (id == null || vector == null) {
                throw new IOException("an item without an id or a vector");
            }
            if (from < 0 || to <= from || json[from] != '[' || json[to - 1] != ']') {
                throw new IOException("cannot tell where an item's vector is");
            }
            return new ParsedItem(new VectorItem(id, metadata == null ? JsJson.object() : metadata, vector,
                    Double.isNaN(norm) ? VectorItem.norm(vector) : norm), from, to);
        }
    }

    /**
     * An item from its JSON whose vector was left out (written as {@code []}), with the vector and norm kept
     * beside it.
     */
    static VectorItem itemWithout(byte[] json, float[] vector, double norm) throws IOException {
        try (JsonParser parser = STREAMS.createParser(json)) {
            parser.nextToken();
            VectorItem read = item(parser);
            return new VectorItem(read.id(), read.metadata(), vector, norm);
        }
    }

    /** Reads an index, handing each item over as it is read. */
    static Header read(InputStream in, Consumer<VectorItem> items) throws IOException {
        JsonNode version = Header.EMPTY.version();
        JsonNode metadataConfig = Header.EMPTY.metadataConfig();
        try (JsonParser parser = STREAMS.createParser(in)) {
            expect(parser.nextToken(), JsonToken.START_OBJECT);
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                switch (field) {
                    case "items" -> {
                        expect(value, JsonToken.START_ARRAY);
                        while (parser.nextToken() != JsonToken.END_ARRAY) {
                            items.accept(item(parser));
                        }
                    }
                    case "version" -> version = parser.readValueAsTree();
                    case "metadata_config" -> metadataConfig = parser.readValueAsTree();
                    default -> parser.skipChildren();
                }
            }
            expect(parser.currentToken(), JsonToken.END_OBJECT);
        }
        return new Header(version, metadataConfig);
    }

    /** One item, the parser on its START_OBJECT. */
    static VectorItem item(JsonParser parser) throws IOException {
        expect(parser.currentToken(), JsonToken.START_OBJECT);
        String id = null;
        ObjectNode metadata = null;
        float[] vector = null;
        double norm = Double.NaN;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            JsonToken value = parser.nextToken();
            switch (field) {
                case "id" -> id = parser.getValueAsString();
                case "metadata" -> {
                    expect(value, JsonToken.START_OBJECT);
                    metadata = parser.readValueAsTree();
                }
                case "vector" -> vector = vector(parser);
                case "norm" -> norm = value.isNumeric() ? parser.getDoubleValue() : Double.NaN;
                default -> parser.skipChildren();
            }
        }
        if (id == null || vector == null) {
            throw new IOException("an item without an id or a vector");
        }
        return new VectorItem(id, metadata == null ? JsJson.object() : metadata, vector,
                Double.isNaN(norm) ? VectorItem.norm(vector) : norm);
    }

    private static float[] vector(JsonParser parser) throws IOException {
        expect(parser.currentToken(), JsonToken.START_ARRAY);
        float[] vector = new float[384];
        int length = 0;
        JsonToken token;
        while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
            if (!token.isNumeric()) {
                throw new IOException("a vector with " + token + " in it");
            }
            if (length == vector.length) {
                vector = Arrays.copyOf(vector, length * 2);
            }
            vector[length++] = parser.getFloatValue();
        }
        return length == vector.length ? vector : Arrays.copyOf(vector, length);
    }

    private static void expect(JsonToken token, JsonToken wanted) throws IOException {
        if (token != wanted) {
            throw new IOException("expected " + wanted + " but found " + token);
        }
    }

    /** The item at a position, read from wherever it is kept. */
    @FunctionalInterface
    interface ItemAt {
        VectorItem item(int i) throws IOException;
    }

    /** Writes a whole index. */
    static void write(OutputStream out, Header header, int count, ItemAt items) throws IOException {
        try (JsonGenerator json = STREAMS.createGenerator(out)) {
            json.writeStartObject();
            json.writeFieldName("version");
            json.writeTree(header.version());
            json.writeFieldName("metadata_config");
            json.writeTree(header.metadataConfig());
            json.writeArrayFieldStart("items");
            for (int i = 0; i < count; i++) {
                write(json, items.item(i));
            }
            json.writeEndArray();
            json.writeEndObject();
        }
    }

    static void write(JsonGenerator json, VectorItem item) throws IOException {
        json.writeStartObject();
        json.writeStringField("id", item.id());
        json.writeFieldName("metadata");
        json.writeTree(item.metadata());
        json.writeArrayFieldStart("vector");
        writeVector(json, item.vector());
        writeNorm(json, item.norm());
        json.writeEndObject();
    }

    /** The vector's numbers as JavaScript prints them, and the array's end (ST: JSON.stringify in vectra's LocalIndex). */
    private static void writeVector(JsonGenerator json, float[] vector) throws IOException {
        for (float v : vector) {
            json.writeNumber(JsJson.jsFloat(v));
        }
        json.writeEndArray();
    }

    private static void writeNorm(JsonGenerator json, double norm) throws IOException {
        json.writeFieldName("norm");
        json.writeNumber(JsJson.jsNumber(norm));
    }

    /** A journal line that adds items: {@code {"add":[items]}}. */
    static void writeAdd(JsonGenerator json, List<VectorItem> items) throws IOException {
        json.writeStartObject();
        json.writeArrayFieldStart("add");
        for (VectorItem item : items) {
            write(json, item);
        }
        json.writeEndArray();
        json.writeEndObject();
    }

    /** A journal line that deletes by hash: {@code {"delete":[hashes]}}. */
    static void writeDelete(JsonGenerator json, Iterable<Double> hashes) throws IOException {
        json.writeStartObject();
        json.writeArrayFieldStart("delete");
        for (double hash : hashes) {
            json.writeNumber(hash);
        }
        json.writeEndArray();
        json.writeEndObject();
    }
}

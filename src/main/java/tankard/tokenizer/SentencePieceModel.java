package tankard.tokenizer;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * What Tankard reads itself from a SentencePiece {@code .model} (a ModelProto protobuf): the pieces and whether
 * decoding drops a leading space. The native binding hands strings back through JNI's modified UTF-8, which
 * mangles characters outside the Basic Multilingual Plane (emoji pieces), so those ids are decoded here.
 */
final class SentencePieceModel {
    private final List<String> pieces;
    private final boolean stripsLeadingSpace;

    private SentencePieceModel(List<String> pieces, boolean stripsLeadingSpace) {
        this.pieces = pieces;
        this.stripsLeadingSpace = stripsLeadingSpace;
    }

    static SentencePieceModel parse(byte[] model) {
        List<String> pieces = new ArrayList<>();
        boolean addDummyPrefix = true;
        boolean removeExtraWhitespaces = true;
        ByteBuffer in = ByteBuffer.wrap(model);
        while (in.hasRemaining()) {
            long tag = varint(in);
            int field = (int) (tag >>> 3);
            if (field == 1 && (tag & 7) == 2) {
                pieces.add(pieceText(slice(in)));
            } else if (field == 3 && (tag & 7) == 2) {
                ByteBuffer normalizer = slice(in);
                while (normalizer.hasRemaining()) {
                    long inner = varint(normalizer);
                    int number = (int) (inner >>> 3);
                    if ((number == 3 || number == 4) && (inner & 7) == 0) {
                        boolean value = varint(normalizer) != 0;
                        addDummyPrefix = number == 3 ? value : addDummyPrefix;
                        removeExtraWhitespaces = number == 4 ? value : removeExtraWhitespaces;
                    } else {
                        skip(normalizer, inner);
                    }
                }
            } else {
                skip(in, tag);
            }
        }
        return new SentencePieceModel(pieces, addDummyPrefix || removeExtraWhitespaces);
    }

    /** Whether the native decoding of this id would mangle it. */
    boolean needsJavaDecoding(int id) {
        return id >= 0 && id < pieces.size() && pieces.get(id).codePoints().anyMatch(Character::isSupplementaryCodePoint);
    }

    /** SentencePiece's decoding of one ordinary piece on its own: {@code ▁} is a space, a leading one goes. */
    String decodeAlone(int id) {
        String piece = pieces.get(id);
        if (stripsLeadingSpace && piece.startsWith("▁")) {
            piece = piece.substring(1);
        }
        return piece.replace('▁', ' ');
    }

    /** The text (field 1) of a SentencePiece message. */
    private static String pieceText(ByteBuffer piece) {
        while (piece.hasRemaining()) {
            long tag = varint(piece);
            if (tag >>> 3 == 1 && (tag & 7) == 2) {
                ByteBuffer text = slice(piece);
                return StandardCharsets.UTF_8.decode(text).toString();
            }
            skip(piece, tag);
        }
        return "";
    }

    private static ByteBuffer slice(ByteBuffer in) {
        int length = Math.toIntExact(varint(in));
        ByteBuffer slice = in.slice(in.position(), length);
        in.position(in.position() + length);
        return slice;
    }

    private static void skip(ByteBuffer in, long tag) {
        switch ((int) (tag & 7)) {
            case 0 -> varint(in);
            case 1 -> in.position(in.position() + 8);
            case 2 -> slice(in);
            case 5 -> in.position(in.position() + 4);
            default -> throw new IllegalArgumentException("Not a SentencePiece model");
        }
    }

    private static long varint(ByteBuffer in) {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            byte b = in.get();
            value |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                return value;
            }
        }
        throw new IllegalArgumentException("Not a SentencePiece model");
    }
}

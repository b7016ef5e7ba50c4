package tankard.summarize.onnx;

/** One decoding step of a seq2seq model over the sequences generated so far (each starting with the start token). */
interface StepDecoder {
    /**
     * The next-token logits of each sequence.
     *
     * @param parents for each sequence, the row of the previous call's batch it extends by its last token (so a
     *                key/value cache can follow the beams); null on the first call
     */
    float[][] next(int[][] sequences, int[] parents) throws Exception;
}

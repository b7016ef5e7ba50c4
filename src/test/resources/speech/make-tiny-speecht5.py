#!/usr/bin/python3
"""Builds the tiny SpeechT5-shaped text-to-speech model the speech tests run (Debian: apt-get install python3-onnx).

Writes, next to this script:

tiny-speecht5/ (the text-to-speech model, as transformers.js's text-to-audio pipeline loads it unquantized):
  onnx/encoder_model.onnx: input_ids, int64 [batch, T] -> encoder_outputs, float [batch, T, D], and
      encoder_attention_mask, int64 [batch, T] (all ones)
  onnx/decoder_model_merged.onnx: use_cache_branch, output_sequence [batch, n, MELS], encoder_attention_mask,
      speaker_embeddings [batch, SPEAKER], encoder_hidden_states and past_key_values.0.{decoder,encoder}.{key,value}
      -> output_sequence_out [batch, n + 1, MELS], spectrum [R, MELS], prob [R] and present.0.*
  config.json (reduction_factor R, num_mel_bins MELS, speaker_embedding_dim SPEAKER), preprocessor_config.json
  (sampling_rate RATE), a WordLevel tokenizer.json that appends </s> as SpeechT5's does, tokenizer_config.json
tiny-hifigan/ (the vocoder): onnx/model.onnx: spectrogram [frames, MELS] -> waveform [frames * 2], config.json

The network, chosen so a test can predict every sample:
- the encoder's state of each token has 1 in its channel 0, so the sum of channel 0 of the encoder's keys is the
  number of tokens E. The merged decoder's cached branch (an If on use_cache_branch, as in an Optimum merged export)
  reads the encoder's keys from past_key_values.0.encoder.* and outputs zeros as present.0.encoder.*: a runner that
  fed those back instead of the first step's would see E = 0 and stop early.
- the step number k is the length of present.0.decoder.key (the past's length + 1): without the cache fed back, k
  stays 1 and generation runs to maxlen.
- prob = sigmoid(10 (k - E - s + 0.5) + [-20, 0]) with s = speaker_embeddings[0]: only the second value crosses 0.5,
  first at step k = E + s (for an integer s).
- spectrum[r, m] = output_sequence[-1, m] + (r + 1) (m + 1): frame f (from 1, over all steps) holds f (m + 1), as
  long as output_sequence_out (the input with spectrum's last row appended) is fed back.
- the vocoder's samples of frame f are mean(frame) * [0.25, -0.5], that is f * 2.5 * [0.25, -0.5].

Run it again only to change the model; the tests need no Python.
"""
import json
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
TTS = os.path.join(HERE, "tiny-speecht5")
VOCODER = os.path.join(HERE, "tiny-hifigan")
D, HEADS, HEAD_DIM = 4, 2, 2
MELS, R, SPEAKER = 4, 2, 3
RATE = 22050
VOCAB = ["<s>", "<pad>", "</s>", "<unk>", "hello", "world", "tankard", "ale"]
UPSAMPLE = [0.25, -0.5]


def const(name, value):
    return numpy_helper.from_array(np.asarray(value), name)


def save(graph, folder, file):
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)],
                              producer_name="tankard make-tiny-speecht5")
    model.ir_version = 7
    onnx.checker.check_model(model)
    os.makedirs(os.path.join(folder, "onnx"), exist_ok=True)
    onnx.save(model, os.path.join(folder, "onnx", file))


def info(name, kind, shape):
    return helper.make_tensor_value_info(name, kind, shape)


def build_encoder():
    rng = np.random.RandomState(5)
    emb = (rng.randn(len(VOCAB), D) * 0.5).astype(np.float32)
    emb[:, 0] = 1
    nodes = [
        helper.make_node("Gather", ["emb", "input_ids"], ["encoder_outputs"]),
        helper.make_node("Mul", ["input_ids", "zero"], ["zeros"]),
        helper.make_node("Add", ["zeros", "one"], ["encoder_attention_mask"]),
    ]
    graph = helper.make_graph(nodes, "tiny_speecht5_encoder",
                              [info("input_ids", TensorProto.INT64, ["batch_size", "encoder_sequence_length"])],
                              [info("encoder_outputs", TensorProto.FLOAT, ["batch_size", "encoder_sequence_length", D]),
                               info("encoder_attention_mask", TensorProto.INT64,
                                    ["batch_size", "encoder_sequence_length"])],
                              [const("emb", emb), const("zero", np.array(0, np.int64)),
                               const("one", np.array(1, np.int64))])
    save(graph, TTS, "encoder_model.onnx")


def build_decoder():
    rng = np.random.RandomState(7)
    nodes = []

    def node(op, inputs, out, **attrs):
        nodes.append(helper.make_node(op, inputs, [out], **attrs))
        return out

    kv_shape = const("kv_shape", np.array([0, 0, HEADS, HEAD_DIM], np.int64))
    # the encoder's keys and values, fresh from its states: [b, H, T, HD]
    fresh_k = node("Transpose", [node("Reshape", ["encoder_hidden_states", "kv_shape"], "enc_heads")], "fresh_k",
                   perm=[0, 2, 1, 3])
    fresh_v = node("Mul", [fresh_k, "half"], "fresh_v")

    def branch(name, outputs):
        return helper.make_graph([helper.make_node("Identity", [source], [out]) for out, source in outputs], name, [],
                                 [info(out, TensorProto.FLOAT, None) for out, _ in outputs])

    cached = helper.make_graph(
        [helper.make_node("Identity", ["past_key_values.0.encoder.key"], ["c_k"]),
         helper.make_node("Identity", ["past_key_values.0.encoder.value"], ["c_v"]),
         helper.make_node("Mul", ["past_key_values.0.encoder.key", "zero_f"], ["c_pk"]),
         helper.make_node("Mul", ["past_key_values.0.encoder.value", "zero_f"], ["c_pv"])],
        "with_past", [], [info(n, TensorProto.FLOAT, None) for n in ("c_k", "c_v", "c_pk", "c_pv")])
    first = branch("without_past", [("f_k", fresh_k), ("f_v", fresh_v), ("f_pk", fresh_k), ("f_pv", fresh_v)])
    node("Squeeze", ["use_cache_branch", "axis0"], "use_cache_branch_scalar")
    nodes.append(helper.make_node("If", ["use_cache_branch_scalar"], ["enc_k", "enc_v", "present.0.encoder.key",
                                                                      "present.0.encoder.value"],
                                  then_branch=cached, else_branch=first))
    # E: the number of encoder tokens, from channel 0 of the encoder's keys (head 0, dim 0)
    enc0 = node("Gather", [node("Gather", ["enc_k", "zero_i"], "enc_k_h0", axis=1), "zero_i"], "enc_k_h0d0", axis=2)
    tokens = node("ReduceSum", [enc0], "tokens", keepdims=0)                                         # [b]
    mask_sum = node("Cast", [node("ReduceSum", ["encoder_attention_mask"], "mask_sum_i", keepdims=0)], "mask_sum",
                    to=TensorProto.FLOAT)
    tokens = node("Add", [tokens, node("Mul", [mask_sum, "zero_f"], "mask_zero")], "tokens_used")  # the mask read
    # the last frame fed, [b, MELS]
    last = node("Gather", ["output_sequence", "minus_one"], "last", axis=1)
    # the decoder's cache grows by one key and value a step
    new_k = node("Transpose", [node("Reshape", [node("MatMul", [node("Unsqueeze", [last, "axis1"], "last3"), "wk"],
                                                     "new_k_flat"), "kv_shape"], "new_k_heads")], "new_k",
                 perm=[0, 2, 1, 3])
    node("Concat", ["past_key_values.0.decoder.key", new_k], "present.0.decoder.key", axis=2)
    node("Concat", ["past_key_values.0.decoder.value", node("Mul", [new_k, "half"], "new_v")],
         "present.0.decoder.value", axis=2)
    step = node("Cast", [node("Gather", [node("Shape", ["present.0.decoder.key"], "dec_shape"), "two_i"], "step_i")],
                "step", to=TensorProto.FLOAT)
    speaker0 = node("Gather", [node("Gather", ["speaker_embeddings", "zero_i"], "speaker_row"), "zero_i"], "speaker0")
    # and the encoder's values take part, at no weight, so that every input is read
    values = node("Mul", [node("ReduceSum", ["enc_v"], "enc_v_sum", keepdims=0), "zero_f"], "enc_v_zero")
    centre = node("Sub", [node("Sub", [node("Add", [step, "half"], "step_half"), tokens],
                               "minus_tokens"), speaker0], "centre")
    logit = node("Add", [node("Mul", [node("Add", [centre, values], "centre_v"), "ten"], "scaled"), "prob_offsets"],
                 "logit")                                                                            # [R]
    node("Sigmoid", [logit], "prob")
    last0 = node("Gather", [last, "zero_i"], "last0")                                                # [MELS]
    node("Add", [node("Unsqueeze", [last0, "axis0"], "last_row"), "steps"], "spectrum")              # [R, MELS]
    appended = node("Unsqueeze", [node("Gather", ["spectrum", "minus_one"], "spectrum_last"), "axes01"], "appended")
    node("Concat", ["output_sequence", appended], "output_sequence_out", axis=1)
    inits = [kv_shape, const("half", np.array(0.5, np.float32)), const("zero_f", np.array(0, np.float32)),
             const("ten", np.array(10, np.float32)), const("zero_i", np.array(0, np.int64)),
             const("two_i", np.array(2, np.int64)), const("minus_one", np.array(-1, np.int64)),
             const("axis0", np.array([0], np.int64)), const("axis1", np.array([1], np.int64)),
             const("axes01", np.array([0, 1], np.int64)),
             const("prob_offsets", np.array([-20, 0], np.float32)),
             const("steps", np.array([[(r + 1) * (m + 1) for m in range(MELS)] for r in range(R)], np.float32)),
             const("wk", (rng.randn(MELS, HEADS * HEAD_DIM) * 0.3).astype(np.float32))]
    kv = lambda name, seq: info(name, TensorProto.FLOAT, ["batch_size", HEADS, seq, HEAD_DIM])
    inputs = [info("use_cache_branch", TensorProto.BOOL, [1]),
              info("output_sequence", TensorProto.FLOAT, ["batch_size", "decoder_sequence_length", MELS]),
              info("encoder_attention_mask", TensorProto.INT64, ["batch_size", "encoder_sequence_length"]),
              info("speaker_embeddings", TensorProto.FLOAT, ["batch_size", SPEAKER]),
              info("encoder_hidden_states", TensorProto.FLOAT, ["batch_size", "encoder_sequence_length", D]),
              kv("past_key_values.0.decoder.key", "past_decoder_sequence_length"),
              kv("past_key_values.0.decoder.value", "past_decoder_sequence_length"),
              kv("past_key_values.0.encoder.key", "encoder_sequence_length_out"),
              kv("past_key_values.0.encoder.value", "encoder_sequence_length_out")]
    outputs = [info("output_sequence_out", TensorProto.FLOAT, ["batch_size", "decoder_sequence_length_out", MELS]),
               info("spectrum", TensorProto.FLOAT, [R, MELS]),
               info("prob", TensorProto.FLOAT, [R]),
               kv("present.0.decoder.key", "total_sequence_length"),
               kv("present.0.decoder.value", "total_sequence_length"),
               kv("present.0.encoder.key", "encoder_sequence_length_out"),
               kv("present.0.encoder.value", "encoder_sequence_length_out")]
    save(helper.make_graph(nodes, "tiny_speecht5_decoder_merged", inputs, outputs, inits), TTS,
         "decoder_model_merged.onnx")


def build_vocoder():
    nodes = [
        helper.make_node("ReduceMean", ["spectrogram"], ["frame_mean"], axes=[1], keepdims=1),  # [frames, 1]
        helper.make_node("MatMul", ["frame_mean", "upsample"], ["samples"]),                    # [frames, 2]
        helper.make_node("Reshape", ["samples", "flat"], ["waveform"]),
    ]
    graph = helper.make_graph(nodes, "tiny_hifigan",
                              [info("spectrogram", TensorProto.FLOAT, ["sequence_length", MELS])],
                              [info("waveform", TensorProto.FLOAT, ["waveform_length"])],
                              [const("upsample", np.array([UPSAMPLE], np.float32)),
                               const("flat", np.array([-1], np.int64))])
    save(graph, VOCODER, "model.onnx")


def write_json(folder, name, value):
    with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
        json.dump(value, f, indent=2, ensure_ascii=False)
        f.write("\n")


def main():
    build_encoder()
    build_decoder()
    build_vocoder()
    write_json(TTS, "config.json", {
        "model_type": "speecht5", "architectures": ["SpeechT5ForTextToSpeech"], "hidden_size": D,
        "decoder_layers": 1, "decoder_attention_heads": HEADS, "encoder_layers": 1, "encoder_attention_heads": HEADS,
        "reduction_factor": R, "num_mel_bins": MELS, "speaker_embedding_dim": SPEAKER, "vocab_size": len(VOCAB)})
    write_json(TTS, "preprocessor_config.json", {
        "feature_extractor_type": "SpeechT5FeatureExtractor", "processor_class": "SpeechT5Processor",
        "num_mel_bins": MELS, "sampling_rate": RATE})
    specials = {"<s>", "<pad>", "</s>", "<unk>"}
    write_json(TTS, "tokenizer.json", {
        "version": "1.0", "truncation": None, "padding": None,
        "added_tokens": [{"id": i, "content": w, "single_word": False, "lstrip": False, "rstrip": False,
                          "normalized": False, "special": True} for i, w in enumerate(VOCAB) if w in specials],
        "normalizer": None, "pre_tokenizer": {"type": "Whitespace"},
        "post_processor": {"type": "TemplateProcessing",
                           "single": [{"Sequence": {"id": "A", "type_id": 0}},
                                      {"SpecialToken": {"id": "</s>", "type_id": 0}}],
                           "pair": [{"Sequence": {"id": "A", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 0}},
                                    {"SpecialToken": {"id": "</s>", "type_id": 0}}],
                           "special_tokens": {"</s>": {"id": "</s>", "ids": [2], "tokens": ["</s>"]}}},
        "decoder": None,
        "model": {"type": "WordLevel", "vocab": {w: i for i, w in enumerate(VOCAB)}, "unk_token": "<unk>"}})
    write_json(TTS, "tokenizer_config.json", {"model_max_length": 600, "tokenizer_class": "SpeechT5Tokenizer"})
    write_json(VOCODER, "config.json", {"model_type": "hifigan", "architectures": ["SpeechT5HifiGan"],
                                        "model_in_dim": MELS, "sampling_rate": 16000})


if __name__ == "__main__":
    main()

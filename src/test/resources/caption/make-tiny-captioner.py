#!/usr/bin/python3
"""Builds the tiny VisionEncoderDecoder-shaped captioner the caption tests run (Debian: apt-get install python3-onnx).

Writes, next to this script, tiny-captioner/: onnx/encoder_model_quantized.onnx (pixel_values, float
[batch, 3, 224, 224] -> last_hidden_state, float [batch, 196, D]) and onnx/decoder_model_merged_quantized.onnx
(input_ids, encoder_hidden_states, use_cache_branch and past_key_values.0.key/value -> logits and present.0.key/value,
as an Optimum merged GPT-2 decoder names them), the files transformers.js's image-to-text pipeline loads with
quantized weights; onnx/decoder_model.onnx, the same decoder without a cache (for a folder without a merged one); config.json, generation_config.json, preprocessor_config.json (ViT's: 224x224, rescale 1/255,
normalize), a WordLevel tokenizer.json, and expected.json: the caption of each test image, computed here with numpy
by a plain, cache-free reference of the same network and greedy decoding.

The network: the encoder averages 16x16 patches and projects each patch's colour; the decoder's next token is a
bigram of the last token ("<|endoftext|>" -> "a" -> colour -> shape -> end), the colour chosen by the image's mean,
plus a small term from the mean of the cached values (so a wrong cache changes the result).

Run it again only to change the model; the tests need no Python.
"""
import json
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "tiny-captioner")
SIZE, PATCH = 224, 16
N = (SIZE // PATCH) ** 2
D, HEADS, HEAD_DIM = 4, 2, 3
MEAN, STD = [0.5, 0.5, 0.5], [0.5, 0.5, 0.5]
END = 0
VOCAB = ["<|endoftext|>", "a", "red", "green", "blue", "square", "circle", "photo", "of", "the"]
V = len(VOCAB)
MAX_LENGTH = 8
# the test images: a solid colour each, as (r, g, b) in 0..255
IMAGES = {"red": (220, 20, 30), "green": (10, 200, 40), "blue": (30, 40, 210)}


def make_weights():
    rng = np.random.RandomState(11)
    enc_w = np.zeros((3, D), np.float32)
    enc_w[0, 0] = enc_w[1, 1] = enc_w[2, 2] = 1
    enc_w[:, 3] = rng.randn(3) * 0.2
    enc_b = (rng.randn(D) * 0.1).astype(np.float32)
    bigram = np.zeros((V, V), np.float32)
    bigram[VOCAB.index("<|endoftext|>"), VOCAB.index("a")] = 10
    for colour in ("red", "green", "blue"):
        bigram[VOCAB.index("a"), VOCAB.index(colour)] = 8
    bigram[VOCAB.index("red"), VOCAB.index("square")] = 10
    bigram[VOCAB.index("blue"), VOCAB.index("square")] = 10
    bigram[VOCAB.index("green"), VOCAB.index("circle")] = 10
    for shape in ("square", "circle"):
        bigram[VOCAB.index(shape), END] = 10
    image = np.zeros((D, V), np.float32)
    for i, colour in enumerate(("red", "green", "blue")):
        image[i, VOCAB.index(colour)] = 3
    value = (rng.randn(V, HEADS * HEAD_DIM) * 0.5).astype(np.float32)
    key = (rng.randn(V, HEADS * HEAD_DIM) * 0.5).astype(np.float32)
    out = (rng.randn(HEADS * HEAD_DIM, V) * 0.3).astype(np.float32)
    return {"enc_w": enc_w, "enc_b": enc_b, "bigram": bigram, "image": image, "wv": value, "wk": key, "wo": out}


# ---- numpy reference

def pixels(rgb):
    """ViT's preprocessing of a solid image: rescaled, normalized, channels first."""
    x = np.empty((3, SIZE, SIZE), np.float32)
    for c in range(3):
        x[c] = (np.float32(rgb[c]) * np.float32(1 / 255) - np.float32(MEAN[c])) / np.float32(STD[c])
    return x


def np_encoder(p, x):
    patches = x.reshape(3, SIZE // PATCH, PATCH, SIZE // PATCH, PATCH).mean(axis=(2, 4)).reshape(3, N).T
    return patches @ p["enc_w"] + p["enc_b"]  # [N, D]


def np_logits(p, states, ids):
    """The next-token logits after ids (the whole sequence, no cache)."""
    values = p["wv"][ids]  # [t, H*HD]
    return p["bigram"][ids[-1]] + states.mean(axis=0) @ p["image"] + values.mean(axis=0) @ p["wo"]


def caption(p, rgb):
    states = np_encoder(p, pixels(rgb))
    ids = [END]
    while len(ids) < MAX_LENGTH:
        token = int(np.argmax(np_logits(p, states, ids)))
        if token == END:
            break
        ids.append(token)
    return " ".join(VOCAB[i] for i in ids[1:])


# ---- ONNX graphs

def const(name, value):
    return numpy_helper.from_array(np.asarray(value), name)


def save(nodes, name, inputs, outputs, inits, file):
    graph = helper.make_graph(nodes, name, inputs, outputs, inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)],
                              producer_name="tankard make-tiny-captioner")
    model.ir_version = 7
    onnx.checker.check_model(model)
    os.makedirs(os.path.join(OUT, "onnx"), exist_ok=True)
    onnx.save(model, os.path.join(OUT, "onnx", file))


def build_encoder(p):
    g = SIZE // PATCH
    nodes = [
        helper.make_node("Reshape", ["pixel_values", "patch_shape"], ["grid"]),          # [b, 3, g, P, g, P]
        helper.make_node("ReduceMean", ["grid"], ["means"], axes=[3, 5], keepdims=0),  # [b, 3, g, g]
        helper.make_node("Reshape", ["means", "flat_shape"], ["flat"]),                # [b, 3, N]
        helper.make_node("Transpose", ["flat"], ["patches"], perm=[0, 2, 1]),          # [b, N, 3]
        helper.make_node("MatMul", ["patches", "enc_w"], ["projected"]),
        helper.make_node("Add", ["projected", "enc_b"], ["last_hidden_state"]),
    ]
    inits = [const("patch_shape", np.array([-1, 3, g, PATCH, g, PATCH], np.int64)),
             const("flat_shape", np.array([-1, 3, N], np.int64)),
             const("enc_w", p["enc_w"]), const("enc_b", p["enc_b"])]
    save(nodes, "tiny_vit_encoder",
         [helper.make_tensor_value_info("pixel_values", TensorProto.FLOAT, ["batch_size", 3, SIZE, SIZE])],
         [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch_size", N, D])],
         inits, "encoder_model_quantized.onnx")


def build_decoder(p, merged):
    """The merged decoder (a cache in, the step's keys and values out), or decoder_model.onnx (the whole sequence)."""
    nodes = []

    def node(op, inputs, out, **attrs):
        nodes.append(helper.make_node(op, inputs, [out], **attrs))
        return out

    heads_shape = const("heads_shape", np.array([0, 0, HEADS, HEAD_DIM], np.int64))
    last = node("Gather", ["input_ids", "minus_one"], "last", axis=1)                     # [b]
    logits = node("Gather", ["bigram", last], "bigram_logits")                            # [b, V]
    image = node("MatMul", [node("ReduceMean", ["encoder_hidden_states"], "image_mean", axes=[1], keepdims=0),
                            "image_w"], "image_logits")                                   # [b, V]

    def cached(weights, past, present):
        new = node("Transpose", [node("Reshape", [node("Gather", [weights, "input_ids"], weights + "_new"),
                                                  "heads_shape"], weights + "_heads")],
                   weights + "_bhtd", perm=[0, 2, 1, 3])                                  # [b, H, t, HD]
        return node("Concat", [past, new], present, axis=2) if merged else new

    if merged:
        cached("wk", "past_key_values.0.key", "present.0.key")
    values = cached("wv", "past_key_values.0.value", "present.0.value")                   # [b, H, T, HD]
    mean = node("ReduceMean", [values], "value_mean", axes=[2], keepdims=0)               # [b, H, HD]
    flat = node("Reshape", [mean, "merged_shape"], "value_flat")                          # [b, H*HD]
    cache_term = node("MatMul", [flat, "wo"], "cache_logits")
    total = node("Add", [node("Add", [logits, image], "l1"), cache_term], "l2")
    if merged:
        # use_cache_branch changes nothing here (the graph is the same with and without a cache), but is consumed
        branch = node("Mul", [node("Cast", ["use_cache_branch"], "branch_f", to=TensorProto.FLOAT), "zero"], "branch0")
        total = node("Add", [total, branch], "l3")
    node("Unsqueeze", [total, "axis1"], "logits")                                         # [b, 1, V]
    inits = [heads_shape, const("minus_one", np.array(-1, np.int64)), const("axis1", np.array([1], np.int64)),
             const("merged_shape", np.array([0, HEADS * HEAD_DIM], np.int64)), const("zero", np.zeros(1, np.float32)),
             const("bigram", p["bigram"]), const("image_w", p["image"]), const("wk", p["wk"]),
             const("wv", p["wv"]), const("wo", p["wo"])]
    kv = lambda name, seq: helper.make_tensor_value_info(name, TensorProto.FLOAT, ["batch_size", HEADS, seq, HEAD_DIM])
    inputs = [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch_size", "decoder_sequence_length"]),
              helper.make_tensor_value_info("encoder_hidden_states", TensorProto.FLOAT,
                                            ["batch_size", "encoder_sequence_length", D])]
    outputs = [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch_size", 1, V])]
    if merged:
        inputs += [kv("past_key_values.0.key", "past_decoder_sequence_length"),
                   kv("past_key_values.0.value", "past_decoder_sequence_length"),
                   helper.make_tensor_value_info("use_cache_branch", TensorProto.BOOL, [1])]
        outputs += [kv("present.0.key", "total_sequence_length"), kv("present.0.value", "total_sequence_length")]
    else:
        inits = [init for init in inits if init.name not in ("zero", "wk")]
    save(nodes, "tiny_gpt2_decoder_merged" if merged else "tiny_gpt2_decoder", inputs, outputs, inits,
         "decoder_model_merged_quantized.onnx" if merged else "decoder_model.onnx")


def write_json(name, value):
    with open(os.path.join(OUT, name), "w", encoding="utf-8") as f:
        json.dump(value, f, indent=2, ensure_ascii=False)
        f.write("\n")


def main():
    p = make_weights()
    build_encoder(p)
    build_decoder(p, True)
    build_decoder(p, False)
    expected = {name: {"rgb": list(rgb), "caption": caption(p, rgb)} for name, rgb in IMAGES.items()}
    assert expected["red"]["caption"] == "a red square", expected
    assert expected["blue"]["caption"] == "a blue square", expected
    assert expected["green"]["caption"] == "a green circle", expected
    write_json("config.json", {
        "model_type": "vision-encoder-decoder", "architectures": ["VisionEncoderDecoderModel"],
        "decoder_start_token_id": END, "eos_token_id": END, "pad_token_id": END,
        "encoder": {"model_type": "vit", "hidden_size": D, "image_size": SIZE, "patch_size": PATCH},
        "decoder": {"model_type": "gpt2", "n_embd": HEADS * HEAD_DIM, "n_head": HEADS, "n_layer": 1,
                    "vocab_size": V, "bos_token_id": END, "eos_token_id": END}})
    write_json("generation_config.json", {"decoder_start_token_id": END, "bos_token_id": END, "eos_token_id": END,
                                          "pad_token_id": END, "max_length": MAX_LENGTH})
    write_json("preprocessor_config.json", {
        "do_normalize": True, "do_rescale": True, "do_resize": True, "image_mean": MEAN, "image_std": STD,
        "image_processor_type": "ViTImageProcessor", "resample": 2, "rescale_factor": 1 / 255,
        "size": {"height": SIZE, "width": SIZE}})
    write_json("tokenizer.json", {
        "version": "1.0", "truncation": None, "padding": None,
        "added_tokens": [{"id": END, "content": VOCAB[END], "single_word": False, "lstrip": False, "rstrip": False,
                          "normalized": False, "special": True}],
        "normalizer": None, "pre_tokenizer": {"type": "Whitespace"}, "post_processor": None, "decoder": None,
        "model": {"type": "WordLevel", "vocab": {w: i for i, w in enumerate(VOCAB)}, "unk_token": VOCAB[END]}})
    write_json("tokenizer_config.json", {"clean_up_tokenization_spaces": True, "model_max_length": 1024})
    write_json("expected.json", expected)


if __name__ == "__main__":
    main()

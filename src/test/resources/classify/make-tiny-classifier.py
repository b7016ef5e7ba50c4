#!/usr/bin/python3
"""Builds the tiny DistilBERT-shaped emotion classifier the classify tests run (Debian: apt-get install python3-onnx).

Writes, next to this script, tiny-classifier/: onnx/model_quantized.onnx (inputs input_ids and attention_mask, int64
[batch, sequence]; output logits, float [batch, labels], as an Optimum export of a sequence classifier names them),
config.json (id2label, label2id and problem_type, as a go-emotions export has them), a WordLevel tokenizer.json
(lower-cased, [CLS] text [SEP], as a BERT uncased tokenizer frames a text), and expected.json: for each test text
the top 5 labels and scores that transformers.js's text-classification pipeline gives, computed here with numpy,
for both problem types (multi-label: sigmoid; single-label: softmax).

The network: an embedding lookup, the mean over the unmasked tokens, one linear layer. Emotion words lean hard
towards their label ("happy" -> joy, "furious" -> anger, "tears" -> sadness, ...); other words barely move the
scores, so a text without one is neutral.

Run it again only to change the model; the tests need no Python.
"""
import json
import os
import re

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "tiny-classifier")
LABELS = ["admiration", "anger", "fear", "joy", "love", "sadness", "surprise", "neutral"]
L = len(LABELS)
D = 8
PAD, UNK, CLS, SEP = 0, 1, 2, 3
EMOTION_WORDS = {"happy": "joy", "furious": "anger", "tears": "sadness", "scared": "fear", "wow": "surprise",
                 "adore": "love", "brilliant": "admiration"}
WORDS = ("the a i am so was it is you my day cat dog rain home and to of in that this".split()
         + list(EMOTION_WORDS))
VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]"] + WORDS
V = len(VOCAB)
MAX_POS = 32
TEXTS = ["I am so happy today!", "I was furious at the dog", "Tears in the rain", "The cat is home",
         "Wow, I adore this brilliant day", "scared and furious and happy", ""]


def encode(text):
    """[CLS] words [SEP], lower-cased, split as HF tokenizers' Whitespace pre-tokenizer splits, cut at MAX_POS."""
    ids = [VOCAB.index(w) if w in VOCAB else UNK for w in re.findall(r"\w+|[^\w\s]+", text.lower())]
    return [CLS] + ids[:MAX_POS - 2] + [SEP]


def make_weights():
    rng = np.random.RandomState(7)
    embed = (rng.randn(V, D) * 0.3).astype(np.float32)
    w = (rng.randn(D, L) * 0.3).astype(np.float32)
    b = (rng.randn(L) * 0.2).astype(np.float32)
    b[LABELS.index("neutral")] += 1.5
    # an emotion word's embedding is moved so that the linear layer adds 30 to its label's logit
    for word, label in EMOTION_WORDS.items():
        target = np.zeros(L, np.float32)
        target[LABELS.index(label)] = 30
        embed[VOCAB.index(word)] += np.linalg.solve(w.T, target).astype(np.float32)
    return embed, w, b


def logits(embed, w, b, ids):
    x = embed.astype(np.float64)[ids]
    return x.mean(axis=0) @ w.astype(np.float64) + b.astype(np.float64)


def top5(scores):
    order = sorted(range(L), key=lambda i: -scores[i])[:5]  # stable, as the pipeline's sort
    return [{"label": LABELS[i], "score": float(np.float32(scores[i]))} for i in order]


def build(embed, w, b):
    nodes = []

    def node(op, inputs, out, **attrs):
        nodes.append(helper.make_node(op, inputs, [out], **attrs))
        return out

    axis1 = numpy_helper.from_array(np.array([1], np.int64), "axis1")
    axis2 = numpy_helper.from_array(np.array([2], np.int64), "axis2")
    mask = node("Cast", ["attention_mask"], "mask", to=TensorProto.FLOAT)          # [b, t]
    x = node("Gather", ["embed", "input_ids"], "x")                                # [b, t, D]
    masked = node("Mul", [x, node("Unsqueeze", [mask, "axis2"], "mask3")], "masked")
    total = node("ReduceSum", [masked, "axis1"], "total", keepdims=0)              # [b, D]
    count = node("ReduceSum", [mask, "axis1"], "count", keepdims=1)                # [b, 1]
    mean = node("Div", [total, node("Max", [count, "one"], "count1")], "mean")
    node("Add", [node("MatMul", [mean, "w"], "projected"), "b"], "logits")
    inits = [numpy_helper.from_array(embed, "embed"), numpy_helper.from_array(w, "w"),
             numpy_helper.from_array(b, "b"), numpy_helper.from_array(np.array([1], np.float32), "one"), axis1, axis2]
    graph = helper.make_graph(nodes, "tiny_classifier",
                              [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch_size", "sequence_length"]),
                               helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch_size", "sequence_length"])],
                              [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch_size", L])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)],
                              producer_name="tankard make-tiny-classifier")
    model.ir_version = 7
    onnx.checker.check_model(model)
    os.makedirs(os.path.join(OUT, "onnx"), exist_ok=True)
    onnx.save(model, os.path.join(OUT, "onnx", "model_quantized.onnx"))


def write_json(name, value):
    with open(os.path.join(OUT, name), "w", encoding="utf-8") as f:
        json.dump(value, f, indent=2, ensure_ascii=False)
        f.write("\n")


def main():
    embed, w, b = make_weights()
    build(embed, w, b)
    expected = {}
    for text in TEXTS:
        z = logits(embed, w, b, encode(text))
        softmax = np.exp(z - z.max()) / np.exp(z - z.max()).sum()
        expected[text] = {"multi_label_classification": top5(1 / (1 + np.exp(-z))),
                          "single_label_classification": top5(softmax)}
    for word, label in EMOTION_WORDS.items():
        assert expected[next(t for t in TEXTS if word in t.lower())] is not None
    assert expected["I am so happy today!"]["multi_label_classification"][0]["label"] == "joy"
    assert expected["I was furious at the dog"]["multi_label_classification"][0]["label"] == "anger"
    assert expected["Tears in the rain"]["multi_label_classification"][0]["label"] == "sadness"
    assert expected["The cat is home"]["multi_label_classification"][0]["label"] == "neutral"
    write_json("config.json", {
        "model_type": "distilbert", "architectures": ["DistilBertForSequenceClassification"], "dim": D,
        "vocab_size": V, "max_position_embeddings": MAX_POS, "problem_type": "multi_label_classification",
        "id2label": {str(i): label for i, label in enumerate(LABELS)},
        "label2id": {label: i for i, label in enumerate(LABELS)}})
    specials = [{"id": i, "content": VOCAB[i], "single_word": False, "lstrip": False, "rstrip": False,
                 "normalized": False, "special": True} for i in (PAD, UNK, CLS, SEP)]
    write_json("tokenizer.json", {
        "version": "1.0", "truncation": None, "padding": None, "added_tokens": specials,
        "normalizer": {"type": "Lowercase"}, "pre_tokenizer": {"type": "Whitespace"},
        "post_processor": {"type": "TemplateProcessing",
                           "single": [{"SpecialToken": {"id": "[CLS]", "type_id": 0}},
                                      {"Sequence": {"id": "A", "type_id": 0}},
                                      {"SpecialToken": {"id": "[SEP]", "type_id": 0}}],
                           "pair": [{"SpecialToken": {"id": "[CLS]", "type_id": 0}},
                                    {"Sequence": {"id": "A", "type_id": 0}},
                                    {"SpecialToken": {"id": "[SEP]", "type_id": 0}},
                                    {"Sequence": {"id": "B", "type_id": 1}},
                                    {"SpecialToken": {"id": "[SEP]", "type_id": 1}}],
                           "special_tokens": {s: {"id": s, "ids": [VOCAB.index(s)], "tokens": [s]}
                                              for s in ("[CLS]", "[SEP]")}},
        "decoder": None,
        "model": {"type": "WordLevel", "vocab": {w: i for i, w in enumerate(VOCAB)}, "unk_token": "[UNK]"}})
    write_json("tokenizer_config.json", {"do_lower_case": True, "model_max_length": MAX_POS})
    write_json("expected.json", expected)


if __name__ == "__main__":
    main()

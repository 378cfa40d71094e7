"""Token alignment with minilm: does a candidate hold something for the query's words that the
home never saw? (docs/ranking.md, "The relevance floor", token alignment.)

A sentence vector's cosine says how near a row is, not whether it answers: "What did the
plumber say about the water heater?" is as near (0.28) to a row about the weather as "What have
I told you about my relatives?" is to "My aunt is planning grandpa's ninetieth party". Read at
the level of words, the two differ: "relatives" has a close counterpart in its row ("aunt",
"grandpa"), "plumber" and "heater" have none in theirs. So each query word that no document
of the home holds (`words`) is looked for in the candidate: its contextual vector (the mean of
its word pieces after the last layer, in the query) against every word of the candidate (the
same, in the candidate), the best cosine kept (ColBERT's MaxSim). A candidate aligns as well as
its worst-aligned such word; the search, as well as its best-aligned candidate.

A word the vocabulary does not hold whole is cut into pieces ("kubernetes" is ku ##ber ##net
##es, "orthodontist" or ##th ##odon ##tist, "wellbeing" well ##bei ##ng) and its vector is the
mean of its pieces, which is near whatever shares a piece: most of the unseen questions the
second look lets through pass on such a word. `cut_limit=N` says a query holding N or more such
words that no row holds either has no counterpart, so a best cosine in the band is not
evidence. The vocabulary cuts ordinary words too ("wellbeing", "merlot", "pint"), so a vague
question holding one, or now and then two, loses its answer: options, not the default
(docs/ranking.md, "A word the encoder cuts in pieces").
"""

from __future__ import annotations

import numpy as np

_ALNUM = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")


def spans(text: str, vocab, max_tokens: int) -> tuple[list[str], list[tuple[int, int]], list[int]]:
    """The text's words (BERT's normalised words), each word's token span in the ids, and the
    ids (`[CLS] ... [SEP]`), cut at the last whole word that fits in `max_tokens`."""
    from carto_rankers.embedders import wordpiece

    unk = vocab["[UNK]"]
    words, places, ids = [], [], []
    for word in wordpiece.words(text):
        pieces = wordpiece.word_ids(word, vocab, unk)
        if len(ids) + len(pieces) > max_tokens - 2:
            break
        places.append((1 + len(ids), 1 + len(ids) + len(pieces)))
        words.append(word)
        ids.extend(pieces)
    return words, places, [vocab["[CLS]"], *ids, vocab["[SEP]"]]


def _word_vectors(words, places, states: np.ndarray, keep) -> tuple[list[str], np.ndarray]:
    picked = [(w, p) for w, p in zip(words, places) if keep(w)]
    if not picked:
        return [], np.zeros((0, states.shape[1]), np.float32)
    vectors = np.stack([states[a:b].mean(0) for _, (a, b) in picked])
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    return [w for w, _ in picked], vectors


def is_word(word: str) -> bool:
    """A word, not a punctuation mark."""
    return not _ALNUM.isdisjoint(word)


def alignment(model, query: str, words: set[str], texts: list[str],
              max_tokens: int = 128, cut_limit: int = 0) -> float | None:
    """The best candidate's alignment of `words` (query words, as `wordpiece.words` writes
    them): per candidate, the lowest over those words of the best cosine to a word of the
    candidate; the highest over the candidates. None when the query holds none of `words`
    or there is no candidate text (nothing to judge). With `cut_limit` N (0: never): 0.0, and
    no model run, when N or more of `words` are cut in pieces."""
    vocab = model.vocab()
    q_words, q_places, q_ids = spans(query, vocab, max_tokens)
    if not texts or not any(w in words for w in q_words):
        return None
    if cut_limit and len({w for w, (a, b) in zip(q_words, q_places)
                          if w in words and b - a > 1}) >= cut_limit:
        return 0.0
    mine, q_vectors = _word_vectors(q_words, q_places, model.states(q_ids),
                                    lambda w: w in words)
    best = None
    for text in texts:
        c_words, c_places, c_ids = spans(text, vocab, max_tokens)
        _, c_vectors = _word_vectors(c_words, c_places, model.states(c_ids), is_word)
        if not len(c_vectors):
            continue
        per_word: dict[str, float] = {}
        for word, value in zip(mine, (q_vectors @ c_vectors.T).max(1)):
            per_word[word] = max(per_word.get(word, -1.0), float(value))  # a repeated word: its best
        score = min(per_word.values())
        best = score if best is None else max(best, score)
    return best

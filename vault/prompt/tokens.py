"""Token counting with cl100k, built once per process from the BPE file shipped in this package.

`cl100k_base.tiktoken` is OpenAI's published cl100k vocabulary, byte for byte (its SHA-256 is
the one tiktoken's own `tiktoken_ext/openai_public.py` checks). It is read from the installed
package and hash-checked, then handed to tiktoken's public `Encoding` constructor with the same
pattern and special tokens as tiktoken's `cl100k_base`. Nothing is downloaded and nothing is
written: tiktoken's `load_tiktoken_bpe` would copy even a local file into a cache directory
under the system's temp dir, so the file is parsed here (one token and rank per line).
"""

from __future__ import annotations

import binascii
import functools
import hashlib
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
    if not text:
        check_encoding(encoding)
        return 0
    return len(encoder(encoding).encode_ordinary(text))


@functools.cache
def _cl100k() -> tiktoken.Encoding:
    data = files(__package__).joinpath(_BPE_FILE).read_bytes()
    if hashlib.sha256(data).hexdigest() != _BPE_SHA256:
        raise RuntimeError(
            f"{_BPE_FILE} in vault's package is damaged (SHA-256 mismatch); reinstall vault"
        )
    # "<base64 token> <rank>" per line; in this file (fixed by its hash) the ranks are 0, 1, 2,
    # ... in line order (tests/unit/test_tokens.py), so they are not parsed one by one
    tokens = data.split()[0::2]
    ranks = dict(zip(map(binascii.a2b_base64, tokens), range(len(tokens))))
    return tiktoken.Encoding(
        DEFAULT_ENCODING, pat_str=_PATTERN, mergeable_ranks=ranks, special_tokens=_SPECIAL_TOKENS
    )

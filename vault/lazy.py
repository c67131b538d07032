"""Imports on first use (CLI start-up time).

`vault prompt` should not pay for the rule-based extractor, YAML, the write path or the episode
machinery it never touches. `vault.api` names those modules through `LazyModule` (and imports
them normally under TYPE_CHECKING, so type checking sees the real modules); the packages
`vault` and `vault.prompt` export their names through `exports` (PEP 562), so importing one
module of a package does not import its siblings.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any


class LazyModule:
    """Stands in for the module `name` until one of its attributes is read."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._module: ModuleType | None = None

    def __getattr__(self, attribute: str) -> Any:
        if self._module is None:
            self._module = importlib.import_module(self._name)
        return getattr(self._module, attribute)


def exports(package: str, sources: dict[str, str]) -> Callable[[str], Any]:
    """A module `__getattr__` (PEP 562) that imports each public name from its module on first
    use: `sources` maps a name to the module defining it. A package's `__init__` uses it so that
    importing one of its modules does not import all the others."""

    def __getattr__(name: str) -> Any:
        source = sources.get(name)
        if source is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(source), name)
        setattr(sys.modules[package], name, value)  # later reads skip this function
        return value

    return __getattr__

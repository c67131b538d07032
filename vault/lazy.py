"""`LazyModule`: a module imported on first attribute access (CLI start-up time).

`vault prompt` should not pay for the rule-based extractor, YAML or the episode machinery it
never touches; `vault.api` names those modules through this proxy (and imports them normally
under TYPE_CHECKING, so type checking sees the real modules).
"""

from __future__ import annotations

import importlib
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

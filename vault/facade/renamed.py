"""Old `Vault` method names, kept for one release: each warns and hands over the new one."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any


class Renamed:
    """A class attribute standing for a method that moved: `add_episodes = Renamed(
    "episodes.add")` makes `v.add_episodes(...)` call `v.episodes.add(...)` after a
    DeprecationWarning naming the new spelling. `static` is what the old name gives when read
    on the class (a method that needs no open vault)."""

    def __init__(self, new: str, *, static: Callable[..., Any] | None = None) -> None:
        self.new = new
        self.static = static
        self.old = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.old = f"{owner.__name__}.{name}"

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        if instance is None and self.static is None:
            return self
        warn_renamed(self.old, self.new, stacklevel=3)
        if instance is None:
            return self.static
        target: Any = instance
        for part in self.new.split("."):
            target = getattr(target, part)
        return target


def warn_renamed(old: str, new: str, *, stacklevel: int = 3) -> None:
    """The DeprecationWarning for an old name (pointing at the caller's line)."""
    warnings.warn(
        f"{old} is deprecated and goes in the next release; use .{new}",
        DeprecationWarning,
        stacklevel=stacklevel,
    )

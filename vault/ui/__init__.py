"""`vault ui`: a local page where the athlete sees and corrects what the coach remembers.

A layer above the public library (`vault.api`), like `vault.mcp`: every action is one call of
a `Vault` method (validation, the privacy gate, one transaction; the engine's next read shows it).
It needs the optional extra (`pip install 'vault[ui]'`: Starlette, Jinja2, uvicorn); nothing
here imports them at package import, so `vault ui` can say which extra is missing.
"""

from __future__ import annotations

import importlib.util

INSTALL_HINT = "the memory page needs its optional extra: pip install 'vault[ui]'"


def stack_available() -> bool:
    """True when Starlette, Jinja2, uvicorn and python-multipart (form parsing) are installed."""
    return all(
        importlib.util.find_spec(name) is not None
        for name in ("starlette", "jinja2", "uvicorn", "multipart")
    )


__all__ = ["INSTALL_HINT", "stack_available"]

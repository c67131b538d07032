"""Plain-text tables and JSON shapes for the CLI."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click
from pydantic import BaseModel


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A left-aligned text table; None prints as empty."""
    cells = [[("" if v is None else str(v)) for v in row] for row in rows]
    widths = [len(h) for h in headers]
    for row in cells:
        widths = [max(w, len(v)) for w, v in zip(widths, row)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(headers, widths)).rstrip()]
    lines += ["  ".join(v.ljust(w) for v, w in zip(row, widths)).rstrip() for row in cells]
    return "\n".join(lines)


def dump(models: Sequence[BaseModel]) -> list[dict[str, Any]]:
    return [m.model_dump(mode="json") for m in models]


def section(title: str, body: str) -> None:
    click.echo(f"{title}\n{body}\n")

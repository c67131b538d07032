"""Plain-text tables and JSON shapes for the CLI."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import click
from pydantic import BaseModel

from vault.domain.models import MergeResult


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """ "1 fact", "2 facts", "0 facts"."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


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


def echo_merge_result(result: MergeResult) -> None:
    """What a merge added, updated, archived and ignored, one line each."""
    for item in result.added:
        click.echo(f"added {item.kind.value} {item.id}: {item.text} ({item.confidence:.2f})")
    for item in result.updated:
        click.echo(
            f"updated {item.kind.value} {item.id}: {item.text} "
            f"({item.confidence:.2f}, seen {item.occurrences}x)"
        )
    for archived in result.archived:
        by = f" by {archived.superseded_by}" if archived.superseded_by else ""
        click.echo(
            f"archived {archived.kind.value}: {archived.original_text} ({archived.reason.value}{by})"
        )
    for ignored in result.ignored:
        click.echo(f"ignored: {ignored.text} ({ignored.reason})")
    if not (result.added or result.updated or result.archived or result.ignored):
        click.echo("nothing changed")


def section(title: str, body: str) -> None:
    click.echo(f"{title}\n{body}\n")


def on_terminal() -> bool:
    """Progress bars only when a person watches stderr; piped or captured output stays quiet."""
    stream = sys.stderr
    return bool(getattr(stream, "isatty", lambda: False)())


@contextmanager
def progress(length: int, label: str) -> Iterator[Callable[[int], None]]:
    """click's progress bar on stderr when it is a terminal, else nothing; yields `advance(n)`."""
    if length <= 0 or not on_terminal():
        yield lambda _n: None
        return
    with click.progressbar(length=length, label=label, file=sys.stderr, show_pos=True) as bar:
        yield bar.update

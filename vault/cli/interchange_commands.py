"""`vault export`, `vault import` and `vault import-yaml`: memory in and out of a vault file.

`export --all` writes JSON Lines: one compact `vault-export` document per line, one athlete a
line, ordered by athlete id, read in one snapshot and streamed (constant memory). `import`
reads either a single document (JSON or YAML) or such a stream, a batch of documents per
transaction, idempotently. Inputs are bounded: a document (or one line of a stream) may hold at
most MAX_DOCUMENT_BYTES, so `vault import /dev/zero` stops at once.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import IO, Any

import click

from vault.api import Vault
from vault.cli.app import (
    CliError,
    at_option,
    committing,
    db_option,
    echo_json,
    json_option,
    main,
    open_from_cli,
    verbose_option,
    warn,
)
from vault.cli.output import counted, progress
from vault.cli.streams import MAX_DOCUMENT_BYTES, decode, open_binary, read_line, stream_size
from vault.domain.errors import VaultError
from vault.services.interchange import FORMATS, ImportReport, parse_text, render

_FILE = click.Path(exists=True, dir_okay=False, allow_dash=True, path_type=str)
BATCH = 200  # documents of a stream restored per transaction
_LISTS = ("facts", "patterns", "notes", "archive")
_SINGULAR = {"facts": "fact", "patterns": "pattern", "notes": "note", "archive": "archived item"}


@main.command()
@click.argument("athlete", required=False)
@click.option(
    "--all",
    "everyone",
    is_flag=True,
    help="Every athlete, as JSON Lines: one compact document per line (streamed).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="json",
    show_default=True,
    help="Document format (one athlete).",
)
@click.option(
    "--contract",
    is_flag=True,
    help="Print the engine's athlete_memory JSON object instead (what the coach app reads).",
)
@click.option(
    "--with-times",
    is_flag=True,
    help="With --contract: add the top-level updated_at. This LEAVES the JSON-Schema "
    "contract (its schema allows no updated_at).",
)
@click.option("--output", "-o", metavar="PATH", help="Write to PATH instead of stdout.")
@click.option("--force", is_flag=True, help="Overwrite an existing --output file.")
@at_option("With --contract: confidences as of this time (default: now).")
@json_option("Print the counts as JSON (with --output, or on stderr with --all to stdout).")
@db_option
@click.pass_context
def export(
    ctx: click.Context,
    athlete: str | None,
    everyone: bool,
    fmt: str,
    contract: bool,
    with_times: bool,
    output: str | None,
    force: bool,
    at: datetime | None,
    as_json: bool,
) -> None:
    """Print ATHLETE's whole memory as a versioned vault-export document (JSON or YAML).

    With --all, every athlete as JSON Lines; `vault import` reads that stream back.
    """
    if everyone == (athlete is not None):
        raise click.UsageError("give one ATHLETE or --all")
    if with_times and not contract:
        raise click.UsageError("--with-times applies to --contract only")
    if everyone and (contract or fmt != "json"):
        raise click.UsageError("--all writes vault-export JSON Lines; drop --contract / --format")
    if output is not None and Path(output).exists() and not force:
        raise CliError(f"{output} exists; choose another name or add --force")
    vault = open_from_cli(ctx)
    if everyone:
        _export_all(vault, output, as_json)
        return
    assert athlete is not None
    if contract:
        text = (
            json.dumps(
                vault.contract(athlete, with_times=with_times, now=at), indent=2, ensure_ascii=False
            )
            + "\n"
        )
        counts: dict[str, int] = {}
    else:
        document = vault.transfer.export(athlete)
        text = render(document, fmt)
        counts = {name: len(document[name]) for name in _LISTS}
    if output is None:
        click.echo(text, nl=False)
        return
    with _atomic_output(output) as stream:
        stream.write(text)
    if as_json:
        echo_json({"athlete": athlete, "output": output, **counts})
    else:
        what = ", ".join(f"{n} {name}" for name, n in counts.items()) or "contract object"
        click.echo(f"exported {athlete} to {output} ({what})")


def _export_all(vault: Vault, output: str | None, as_json: bool) -> None:
    totals = Counts()
    with progress(vault.admin.athlete_count(), "exporting") as advance:
        if output is None:
            _write_stream(vault, sys.stdout, totals, advance)
        else:
            with _atomic_output(output) as stream:
                _write_stream(vault, stream, totals, advance)
    summary = {"athletes": totals.athletes, **totals.rows, "output": output or "-"}
    to_stderr = output is None  # stdout carries the stream itself
    if as_json:
        click.echo(json.dumps(summary), err=to_stderr)
    else:
        click.echo(
            f"exported {counted(totals.athletes, 'athlete')} ({totals.describe()}) "
            f"to {output or 'standard output'}",
            err=to_stderr,
        )


def _write_stream(vault: Vault, stream: IO[str], totals: Counts, advance: Any) -> None:
    for document in vault.transfer.export_all():
        stream.write(json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n")
        totals.add_document(document)
        advance(1)


class _atomic_output:  # noqa: N801 - used as a context manager
    """Write PATH.partial, then rename it over PATH: an interrupted export leaves no torso."""

    def __init__(self, path: str) -> None:
        self.path = Path(path)
        self.partial = self.path.with_name(f".{self.path.name}.partial")

    def __enter__(self) -> IO[str]:
        self.stream = open(self.partial, "w", encoding="utf-8")
        return self.stream

    def __exit__(self, exc_type: Any, *_: Any) -> None:
        self.stream.close()
        if exc_type is None:
            os.replace(self.partial, self.path)
        else:
            self.partial.unlink(missing_ok=True)


@dataclass
class Counts:
    athletes: int = 0
    restored: int = 0
    unchanged: int = 0
    skipped: int = 0
    rows: dict[str, int] = field(default_factory=lambda: dict.fromkeys(_LISTS, 0))

    def add_document(self, document: dict[str, Any]) -> None:
        self.athletes += 1
        for name in _LISTS:
            self.rows[name] += len(document[name])

    def add_report(self, report: ImportReport) -> None:
        self.athletes += 1
        self.restored += report.changed
        self.unchanged += not report.changed
        for name, n in zip(_LISTS, (report.facts, report.patterns, report.notes, report.archived)):
            self.rows[name] += n

    def describe(self) -> str:
        return ", ".join(counted(n, _SINGULAR[name]) for name, n in self.rows.items())


@main.command("import")
@click.argument("path", type=_FILE)
@click.option(
    "--skip-bad",
    is_flag=True,
    help="In a JSON Lines stream, skip (and warn about) documents that do not validate.",
)
@click.option(
    "--trusted",
    is_flag=True,
    help="Your own export: skip the privacy filter every other write passes.",
)
@verbose_option
@json_option("Print the import report (or the stream's counts) as JSON.")
@db_option
@click.pass_context
def import_(
    ctx: click.Context, path: str, skip_bad: bool, trusted: bool, verbose: bool, as_json: bool
) -> None:
    """Restore the athlete(s) in PATH (`-` for stdin), exactly: a vault-export document (JSON
    or YAML), or the JSON Lines stream of `vault export --all`.

    The athlete's facts, patterns, notes and archive become the document's (ids are
    renumbered); importing the same document again changes nothing. A stream is restored
    BATCH documents per transaction, with a progress bar on a terminal.
    """
    with open_binary(path) as stream:
        first = read_line(stream, path, 1)
        if _is_stream_line(first):
            _import_stream(ctx, stream, path, first, skip_bad, trusted, verbose, as_json)
            return
        rest = stream.read(MAX_DOCUMENT_BYTES + 1 - len(first))
        raw = first + rest
        if len(raw) > MAX_DOCUMENT_BYTES or stream.read(1):
            raise CliError(
                f"{path} is larger than the {MAX_DOCUMENT_BYTES >> 20} MB a document may hold"
            )
    document = parse_text(decode(raw, path), path)
    vault = open_from_cli(ctx, create=True)
    with committing(ctx, f"the import of {document.athlete.id}"):
        report = vault.transfer.import_document(document, trusted=trusted)
    _print(report, as_json, "restored" if report.changed else "unchanged")


def _import_stream(
    ctx: click.Context,
    stream: IO[bytes],
    path: str,
    first: bytes,
    skip_bad: bool,
    trusted: bool,
    verbose: bool,
    as_json: bool,
) -> None:
    vault = open_from_cli(ctx, create=True)
    totals = Counts()
    size = stream_size(stream)
    batch: list[Any] = []
    first_line = 1

    def flush(last_line: int) -> None:
        nonlocal batch, first_line
        if not batch:
            first_line = last_line + 1
            return
        with committing(ctx, f"lines {first_line}-{last_line} of {path}"):
            reports = vault.transfer.import_documents(batch, trusted=trusted)
        for report in reports:
            totals.add_report(report)
            if verbose:
                click.echo(f"{'restored' if report.changed else 'unchanged'} {report.athlete_id}")
        batch, first_line = [], last_line + 1

    with progress(size, "importing") as advance:
        number, line = 1, first
        while line:
            advance(len(line))
            if line.strip():
                try:
                    batch.append(
                        parse_text(decode(line, f"{path} line {number}"), f"{path} line {number}")
                    )
                except VaultError as error:
                    if not skip_bad:
                        raise CliError(f"line {number}: {error}{_committed(totals)}") from None
                    totals.skipped += 1
                    warn(f"skipped line {number}: {error}")
            if len(batch) >= BATCH:
                flush(number)
            number += 1
            line = read_line(stream, path, number)
        flush(number - 1)
    summary = {
        "athletes": totals.athletes,
        "restored": totals.restored,
        "unchanged": totals.unchanged,
        "skipped": totals.skipped,
        **totals.rows,
    }
    if as_json:
        echo_json(summary)
    else:
        skipped = f", {totals.skipped} skipped" if totals.skipped else ""
        click.echo(
            f"imported {counted(totals.athletes, 'athlete')} from {path} ({totals.restored} restored, "
            f"{totals.unchanged} unchanged{skipped}; {totals.describe()})"
        )


def _committed(totals: Counts) -> str:
    if not totals.athletes:
        return "; nothing was imported"
    return (
        f"; the {counted(totals.athletes, 'athlete')} before it were imported and committed, "
        "nothing after it (importing again is safe: unchanged athletes are not rewritten)"
    )


def _is_stream_line(line: bytes) -> bool:
    """A JSON Lines stream starts with a whole JSON object on its first line."""
    stripped = line.strip()
    if not stripped.startswith(b"{") or not stripped.endswith(b"}"):
        return False
    try:
        return isinstance(json.loads(stripped), dict)
    except (ValueError, RecursionError):
        return False


@main.command("import-yaml")
@click.argument("path", type=_FILE)
@click.option("--athlete", required=True, help="Athlete id to import the memories as.")
@click.option("--replace", is_flag=True, help="Replace the athlete's existing memory.")
@click.option(
    "--trusted",
    is_flag=True,
    help="A file you vouch for: skip the privacy gate every other write passes.",
)
@json_option("Print the import report as JSON.")
@db_option
@click.pass_context
def import_yaml(
    ctx: click.Context, path: str, athlete: str, replace: bool, trusted: bool, as_json: bool
) -> None:
    """Import a coach app's memories.yaml file at PATH (`-` for stdin) as ATHLETE's memory."""
    source: str | Path
    if path != "-" and Path(path).is_file():
        if Path(path).stat().st_size > MAX_DOCUMENT_BYTES:
            raise CliError(
                f"{path} is larger than the {MAX_DOCUMENT_BYTES >> 20} MB a file may hold"
            )
        source = Path(path)  # errors name the file
    else:
        with open_binary(path) as stream:
            raw = stream.read(MAX_DOCUMENT_BYTES + 1)
        if len(raw) > MAX_DOCUMENT_BYTES:
            raise CliError(
                f"{path} is larger than the {MAX_DOCUMENT_BYTES >> 20} MB a file may hold"
            )
        source = decode(raw, path)
    vault = open_from_cli(ctx, create=True)
    with committing(ctx, f"the import of {athlete}"):
        report = vault.transfer.import_memories_yaml(source, athlete, replace, trusted=trusted)
    _print(report, as_json, "imported")


def _print(report: ImportReport, as_json: bool, verb: str) -> None:
    if as_json:
        echo_json(report.model_dump(mode="json"))
        return
    click.echo(
        f"{verb} {report.athlete_id}: {counted(report.facts, 'fact')}, "
        f"{counted(report.patterns, 'pattern')}, {counted(report.notes, 'note')}, "
        f"{report.archived} archived"
    )
    for message in report.messages:
        click.echo(f"  {message}")

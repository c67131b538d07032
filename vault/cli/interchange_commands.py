"""`vault export`, `vault import` and `vault import-yaml`: memory in and out of a vault file."""

from __future__ import annotations

from pathlib import Path

import click

from vault.cli.app import echo_json, main, open_from_cli
from vault.domain.errors import InvalidInput
from vault.services.interchange import FORMATS, ImportReport, parse_text, render

_FILE = click.Path(exists=True, dir_okay=False, allow_dash=True, path_type=str)


@main.command()
@click.argument("athlete")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="json",
    show_default=True,
    help="Document format.",
)
@click.option(
    "--output", "-o", metavar="PATH", help="Write the document to PATH instead of stdout."
)
@click.pass_context
def export(ctx: click.Context, athlete: str, fmt: str, output: str | None) -> None:
    """Print ATHLETE's whole memory as a versioned vault-export document (JSON or YAML)."""
    document = open_from_cli(ctx).export(athlete)
    text = render(document, fmt)
    if output is None:
        click.echo(text, nl=False)
        return
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as error:
        raise click.ClickException(f"cannot write {output}: {error.strerror or error}") from None
    click.echo(f"exported {document['athlete']['id']} to {output} ({_counts(document)})")


@main.command("import")
@click.argument("path", type=_FILE)
@click.option("--json", "as_json", is_flag=True, help="Print the import report as JSON.")
@click.pass_context
def import_(ctx: click.Context, path: str, as_json: bool) -> None:
    """Restore the athlete in a vault-export document at PATH (`-` for stdin), exactly.

    The athlete's facts, patterns, notes and archive become the document's (ids are
    renumbered); importing the same document again changes nothing.
    """
    document = parse_text(_read(path), path)
    report = open_from_cli(ctx, create=True).import_document(document)
    _print(report, as_json, "restored" if report.changed else "unchanged")


@main.command("import-yaml")
@click.argument("path", type=_FILE)
@click.option("--athlete", required=True, help="Athlete id to import the memories as.")
@click.option("--replace", is_flag=True, help="Replace the athlete's existing memory.")
@click.option("--json", "as_json", is_flag=True, help="Print the import report as JSON.")
@click.pass_context
def import_yaml(ctx: click.Context, path: str, athlete: str, replace: bool, as_json: bool) -> None:
    """Import seed 002's memories.yaml at PATH (`-` for stdin) as ATHLETE's memory."""
    source: str | Path = _read(path) if path == "-" else Path(path)
    report = open_from_cli(ctx, create=True).import_memories_yaml(source, athlete, replace)
    _print(report, as_json, "imported")


def _read(path: str) -> str:
    try:
        with click.open_file(path, encoding="utf-8") as stream:  # `-` is stdin
            return str(stream.read())
    except (OSError, UnicodeDecodeError) as error:
        raise InvalidInput(f"cannot read {path}: {error}") from None


def _print(report: ImportReport, as_json: bool, verb: str) -> None:
    if as_json:
        echo_json(report.model_dump(mode="json"))
        return
    click.echo(
        f"{verb} {report.athlete_id}: {report.facts} facts, {report.patterns} patterns, "
        f"{report.notes} notes, {report.archived} archived"
    )
    for message in report.messages:
        click.echo(f"  {message}")


def _counts(document: dict[str, object]) -> str:
    return ", ".join(
        f"{len(document[name])} {name}"  # type: ignore[arg-type]
        for name in ("facts", "patterns", "notes", "archive")
    )

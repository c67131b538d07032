"""`vault datasette-metadata`: a datasette metadata file describing every view and column.

    vault datasette-metadata > metadata.json
    datasette serve vault.db --metadata metadata.json

Views come first (in the file, and at the top of the database page, where the description links
each one); the bookkeeping tables (`alembic_version`, `sqlite_sequence`, `legacy_adoption`, the
full-text index's shadow tables) are hidden. The words are `vault.storage.views.VIEW_DOCS`, the
same that revision 0006 writes as COMMENT ON VIEW / COLUMN on PostgreSQL.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

import click

from vault.cli.app import database_url, db_option, echo_json, main
from vault.storage.engine import sqlite_file
from vault.storage.engine_view import ENGINE_VIEW_DOCS, VIEW_NAME
from vault.storage.episode_tables import EPISODE_VIEW_DOCS, EPISODE_VIEWS
from vault.storage.evidence_tables import FACT_EVIDENCE_DOCS, FACT_EVIDENCE_V1
from vault.storage.views import CURRENT_VIEWS, VIEW_DOCS

HIDDEN = (
    "alembic_version",
    "sqlite_sequence",
    "legacy_adoption",
    "episodes_fts",
    "episodes_fts_config",
    "episodes_fts_data",
    "episodes_fts_docsize",
    "episodes_fts_idx",
)
TABLE_DOCS: dict[str, str] = {
    "athletes": "One row per athlete whose memory the vault keeps.",
    "facts": "Active key facts (read them through the views).",
    "fact_tags": "Entity tags of active facts (`body:knee`, `time:morning`, `context:kids`).",
    "patterns": "Recurring patterns (cap 5 per athlete).",
    "notes": "Coaching notes (cap 5 per athlete).",
    "archive": "Everything that left the active set, why, and what replaced it.",
    "archive_tags": "The tags an archived fact had when it left.",
    "forget_log": "Counts of forget requests; what was asked is deliberately not kept.",
    "fact_evidence": "What each active fact rests on: one row per observation.",
    "episodes": "What happened to each owner (read them through episode_list).",
    "episode_vectors": "An embedding per episode, when the app stores them.",
    "episode_archive": "Episodes that left: past the cap, expired or forgotten.",
    "knowledge": "Reference knowledge (exercises, injuries, races) the prompt may cite.",
    "knowledge_names": "Each knowledge row's lower-cased names and aliases.",
}
_VIEW_DOCS = {**VIEW_DOCS, **EPISODE_VIEW_DOCS}


def datasette_metadata(database: str) -> dict[str, Any]:
    """The metadata document for a database datasette names `database` (the file's stem)."""
    views = [*(view.name for view in CURRENT_VIEWS), *EPISODE_VIEWS]
    tables: dict[str, Any] = {}
    for name in views:
        description, columns = _VIEW_DOCS[name]
        tables[name] = {"description": description, "columns": dict(columns)}
    for name, (description, columns) in (
        (FACT_EVIDENCE_V1.name, FACT_EVIDENCE_DOCS),
        (VIEW_NAME, ENGINE_VIEW_DOCS),
    ):
        tables[name] = {"description": description, "columns": dict(columns)}
    for name, description in TABLE_DOCS.items():
        tables[name] = {"description": description}
    for name in HIDDEN:
        tables[name] = {"hidden": True}
    listing = "".join(
        f'<li><a href="/{html.escape(database)}/{name}"><strong>{name}</strong></a>: '
        f"{html.escape(_VIEW_DOCS[name][0])}</li>"
        for name in views
    )
    return {
        "title": "vault: what the coach remembers",
        "description_html": (
            "The views are the stable read interface; the tables behind them are listed after."
        ),
        "databases": {
            database: {
                "description_html": f"<p>Start with the views:</p><ul>{listing}</ul>",
                "tables": tables,
            }
        },
    }


@main.command("datasette-metadata")
@click.option(
    "--database",
    "name",
    metavar="NAME",
    help="The database name datasette shows (default: the vault file's stem).",
)
@db_option
@click.pass_context
def datasette_metadata_command(ctx: click.Context, name: str | None) -> None:
    """Print a datasette metadata file (JSON) describing every view and column, views first.

    Use: `vault datasette-metadata > metadata.json; datasette serve vault.db -m metadata.json`.
    """
    if name is None:
        path = sqlite_file(database_url(ctx))
        name = Path(path).stem if path is not None else "vault"
    echo_json(datasette_metadata(name))

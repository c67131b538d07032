"""The `vault` command line. Built on click: typed options, `--help` everywhere, exit code 2
for usage mistakes out of the box, and CliRunner for tests.

Command modules are imported when their command runs (`VaultGroup.lazy_commands`), so
`vault prompt` does not load the code of `vault copy` or `vault datasette-metadata`, and
`vault --help` lists the commands from their one-line summaries without loading any.
"""

from __future__ import annotations

from vault.cli.app import main

# command name -> (the module that defines it, the line `vault --help` shows for it);
# tests/cli/test_startup.py checks each line against the command's own docstring
COMMANDS = {
    "upgrade": (
        "admin",
        "Create the vault file or upgrade it to the newest schema, in one transaction.",
    ),
    "sql": ("analyst_commands", "Run one read-only query (SELECT, WITH ..."),
    "stats": (
        "analyst_commands",
        "Count the rows of every vault table and the stored facts per category.",
    ),
    "backup": (
        "backup_commands",
        "Copy the whole vault to DESTINATION while it is in use (a consistent snapshot).",
    ),
    "copy": (
        "copy_commands",
        "Copy every athlete of SRC_URL into DEST_URL (a file path or a database URL).",
    ),
    "datasette-metadata": (
        "datasette_commands",
        "Print a datasette metadata file (JSON) describing every view and column, views first.",
    ),
    "demo": (
        "demo",
        "Replay a few weeks of one athlete's chats and activities into the vault (a local file).",
    ),
    "doctor": (
        "doctor_commands",
        "Check the vault: integrity, foreign keys, schema revision, that every view answers, the memory invariants (caps, one active fact per text and per conflict key, confidences in 0..1, history links) and erased text still pending in the write-ahead log.",
    ),
    "erase": ("doctor_commands", "Finish erasing forgotten and deleted memories from disk."),
    "episode": ("episode_commands", "Record what happened (episodic memory)."),
    "knowledge": (
        "episode_commands",
        "Static reference knowledge about named things (routes, courses, shoes...).",
    ),
    "recall": ("episode_commands", "OWNER's K episodes most relevant to QUERY, best first."),
    "export": (
        "interchange_commands",
        "Print ATHLETE's whole memory as a versioned vault-export document (JSON or YAML).",
    ),
    "import": (
        "interchange_commands",
        "Restore the athlete(s) in PATH (`-` for stdin), exactly: a vault-export document (JSON or YAML), or the JSON Lines stream of `vault export --all`.",
    ),
    "import-yaml": (
        "interchange_commands",
        "Import a coach app's memories.yaml file at PATH (`-` for stdin) as ATHLETE's memory.",
    ),
    "mcp": (
        "mcp_commands",
        "Serve the vault to an MCP client (stdio by default), bound to the --athlete ids.",
    ),
    "ui": (
        "ui_commands",
        "Serve the memory page: what the coach sees about each athlete, and corrections.",
    ),
    "ingest": (
        "learning_commands",
        "Extract what ATHLETE said or did into memory (`-` reads standard input).",
    ),
    "relevant": (
        "learning_commands",
        "List ATHLETE's memories most relevant to CONTEXT (shared words, tags, confidence, recency).",
    ),
    "consolidate": (
        "learning_commands",
        "Turn ATHLETE's recorded activity sessions into durable facts (safe to repeat).",
    ),
    "remember": ("memory_commands", "Merge one fact, pattern or note into ATHLETE's memory."),
    "facts": (
        "memory_commands",
        "List ATHLETE's active facts, patterns and notes (confidence as of --at).",
    ),
    "forget": (
        "memory_commands",
        "Erase everything about ATHLETE that matches QUERY (archive included, no copy kept).",
    ),
    "decay": (
        "memory_commands",
        "Lower facts unreinforced for 7+ days by their category's weekly factor; archive those below 0.3.",
    ),
    "delete": ("memory_commands", "Erase ATHLETE from every table, archive included."),
    "history": (
        "memory_commands",
        "Show what FACT_ID replaced, and which fact holds its place today.",
    ),
    "cleanup": ("memory_commands", "Delete archive rows older than the retention period."),
    "prompt": (
        "prompt_commands",
        "Print exactly what the coach model would receive about ATHLETE.",
    ),
    "bootstrap": (
        "prompt_commands",
        "Seed ATHLETE's memory from their profile (source profile_change).",
    ),
}
main.lazy_commands = {name: f"vault.cli.{module}" for name, (module, _) in COMMANDS.items()}
main.summaries = {name: summary for name, (_, summary) in COMMANDS.items()}

__all__ = ["COMMANDS", "main"]

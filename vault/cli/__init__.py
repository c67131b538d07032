"""The `vault` command line. Built on click: typed options, `--help` everywhere, exit code 2
for usage mistakes out of the box, and CliRunner for tests.

Command modules are imported when their command runs (`VaultGroup.lazy_commands`), so
`vault prompt` does not load the code of `vault copy` or `vault datasette-metadata`.
"""

from __future__ import annotations

from vault.cli.app import main

COMMANDS = {
    "upgrade": "admin",
    "sql": "analyst_commands",
    "stats": "analyst_commands",
    "backup": "backup_commands",
    "copy": "copy_commands",
    "datasette-metadata": "datasette_commands",
    "demo": "demo",
    "doctor": "doctor_commands",
    "erase": "doctor_commands",
    "episode": "episode_commands",
    "knowledge": "episode_commands",
    "recall": "episode_commands",
    "export": "interchange_commands",
    "import": "interchange_commands",
    "import-yaml": "interchange_commands",
    "mcp": "mcp_commands",
    "ui": "ui_commands",
    "ingest": "learning_commands",
    "relevant": "learning_commands",
    "consolidate": "learning_commands",
    "remember": "memory_commands",
    "facts": "memory_commands",
    "forget": "memory_commands",
    "decay": "memory_commands",
    "delete": "memory_commands",
    "history": "memory_commands",
    "cleanup": "memory_commands",
    "prompt": "prompt_commands",
    "bootstrap": "prompt_commands",
}
main.lazy_commands = {name: f"vault.cli.{module}" for name, module in COMMANDS.items()}

__all__ = ["COMMANDS", "main"]

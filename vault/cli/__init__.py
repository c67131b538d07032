"""The `vault` command line. Built on click: typed options, `--help` everywhere, exit code 2
for usage mistakes out of the box, and CliRunner for tests.
"""

from __future__ import annotations

# Command modules register themselves on `main` when imported.
from vault.cli import (  # noqa: E402,F401
    admin,
    analyst_commands,
    backup_commands,
    copy_commands,
    datasette_commands,
    demo,
    doctor_commands,
    episode_commands,
    interchange_commands,
    learning_commands,
    memory_commands,
    prompt_commands,
)
from vault.cli.app import main

__all__ = [
    "admin",
    "analyst_commands",
    "backup_commands",
    "datasette_commands",
    "demo",
    "interchange_commands",
    "learning_commands",
    "main",
    "memory_commands",
    "prompt_commands",
]

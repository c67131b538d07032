"""Start-up: click loads a command's module when that command runs, so `vault prompt` does
not import the code of the other commands. Checked by what is imported, not by how long it
takes (tools/bench_startup.py times it)."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import click
import pytest

from vault.cli import COMMANDS, main


def test_every_command_is_registered_under_its_lazy_name() -> None:
    assert sorted(main.list_commands(click.Context(main))) == sorted(COMMANDS)


def test_vault_prompt_loads_no_other_commands_module(tmp_path: Path) -> None:
    db = tmp_path / "v.db"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "vault",
            "--db",
            str(db),
            "remember",
            "ana",
            "primary sport: running",
        ],
        check=True,
        capture_output=True,
    )
    probe = (
        "import json, sys\n"
        "from vault.cli import main\n"
        "try:\n"
        f"    main(['--db', {str(db)!r}, 'prompt', 'ana'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('vault.cli.'))))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    *block, loaded = result.stdout.splitlines()
    assert block == ["MEMORY:", "- Facts: primary sport: running"]
    commands = {f"vault.cli.{module}" for module in COMMANDS.values()}
    assert commands & set(json.loads(loaded)) == {"vault.cli.prompt_commands"}


@pytest.mark.parametrize("package", ["vault", "vault.prompt"])
def test_a_package_exports_exactly_its_all(package: str) -> None:
    module = importlib.import_module(package)
    public = {
        n
        for n, v in vars(module).items()
        if not n.startswith("_") and not isinstance(v, type(module))
    }
    assert public == set(module.__all__)

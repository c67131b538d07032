"""Start-up is designed (issue 8): `vault prompt` imports only what it needs. Checked by what
is imported, not by how long it takes."""

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


def test_vault_prompt_loads_only_what_the_memory_block_needs(tmp_path: Path) -> None:
    db = tmp_path / "v.db"
    subprocess.run([sys.executable, "-m", "vault", "--db", str(db), "remember", "ana",
                    "primary sport: running"], check=True, capture_output=True)  # fmt: skip
    probe = (
        "import json, sys\n"
        "from vault.cli import main\n"
        "try:\n"
        f"    main(['--db', {str(db)!r}, 'prompt', 'ana'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "heavy = ['vault.extraction', 'yaml', 'alembic', 'jsonschema', 'sqlglot',\n"
        "         'sqlalchemy.dialects.postgresql', 'vault.cli.copy_commands',\n"
        "         'vault.domain.episodes', 'vault.domain.legacy', 'vault.services.memory',\n"
        "         'vault.storage.uow', 'vault.storage.repositories', 'vault.prompt.episodes',\n"
        "         'vault.prompt.contract', 'vault.prompt.bootstrap']\n"
        "print(json.dumps([m for m in heavy if m in sys.modules]))\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            check=True)  # fmt: skip
    *block, loaded = result.stdout.splitlines()
    assert block == ["MEMORY:", "- Facts: primary sport: running"]
    assert json.loads(loaded) == []


@pytest.mark.parametrize("package", ["vault", "vault.prompt"])
def test_a_lazy_package_exports_exactly_its_names_each_from_its_module(package: str) -> None:
    module = importlib.import_module(package)
    sources = module._SOURCES
    assert sorted(sources) == sorted(module.__all__)
    for name, source in sources.items():
        assert getattr(module, name) is getattr(importlib.import_module(source), name)
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        module.nothing_here  # noqa: B018

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
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('vault.'))))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    *block, loaded = result.stdout.splitlines()
    assert block == ["MEMORY:", "- Facts: primary sport: running"]
    commands = {f"vault.cli.{module}" for module, _ in COMMANDS.values()}
    assert commands & set(json.loads(loaded)) == {"vault.cli.prompt_commands"}
    # nor the extraction rules (hundreds of regular expressions), learning, episodes, transfer,
    # the episode tables' text tools, nor the SQL parser of the shard-routing check
    unused = {
        "vault.storage.repositories.episodes",
        "vault.storage.routing",
        "vault.extraction.rules",
        "vault.extraction.privacy",
        "vault.services.learning",
        "vault.services.episodes",
        "vault.facade.transfer",
        "vault.facade.episodes",
    }
    assert not unused & set(json.loads(loaded))


def test_vault_prompt_builds_no_pydantic_validator(tmp_path: Path) -> None:
    """Building a model's validator costs milliseconds each; the block needs none (its models
    are made with `model_construct` from rows already checked)."""
    db = tmp_path / "v.db"
    main_args = ["--db", str(db), "remember", "ana", "primary sport: running"]
    subprocess.run([sys.executable, "-m", "vault", *main_args], check=True, capture_output=True)
    probe = (
        "import json, sys\n"
        "import pydantic\n"
        "from vault.cli import main\n"
        "try:\n"
        f"    main(['--db', {str(db)!r}, 'prompt', 'ana'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "def models(cls):\n"
        "    for sub in cls.__subclasses__():\n"
        "        yield sub\n"
        "        yield from models(sub)\n"
        "built = {m.__qualname__ for m in models(pydantic.BaseModel)\n"
        "         if m.__module__.startswith('vault') and m.__pydantic_complete__}\n"
        "print(json.dumps(sorted(built)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    assert json.loads(result.stdout.splitlines()[-1]) == []


def test_every_model_of_vault_defers_its_validator_to_first_use() -> None:
    import pkgutil

    import pydantic

    import vault

    for info in pkgutil.walk_packages(vault.__path__, "vault."):
        try:
            importlib.import_module(info.name)
        except ImportError:  # an optional extra's module, without the extra
            continue

    def models(cls: type[pydantic.BaseModel]) -> list[type[pydantic.BaseModel]]:
        found = []
        for sub in cls.__subclasses__():
            found += [sub, *models(sub)]
        return found

    ours = [m for m in models(pydantic.BaseModel) if m.__module__.startswith("vault.")]
    assert len(ours) > 20
    assert [m.__qualname__ for m in ours if not m.model_config.get("defer_build")] == []


@pytest.mark.parametrize("package", ["vault", "vault.prompt", "vault.extraction"])
def test_a_package_shows_exactly_its_all_and_each_name_resolves(package: str) -> None:
    module = importlib.import_module(package)
    assert {n for n in dir(module) if not n.startswith("_")} == set(module.__all__)
    for name in module.__all__:
        assert getattr(module, name) is not None
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        module.nothing  # noqa: B018


def test_command_summaries_are_the_commands_own_help_lines() -> None:
    context = click.Context(main)
    for name, (_, summary) in COMMANDS.items():
        command = main.get_command(context, name)
        assert command is not None
        assert command.get_short_help_str(limit=1000) == summary, name


@pytest.mark.parametrize("args", [["--version"], ["--help"]])
def test_version_and_help_load_no_command_and_no_library(args: list[str]) -> None:
    probe = (
        "import json, sys\n"
        "from vault.cli import main\n"
        "try:\n"
        f"    main({args!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    loaded = set(json.loads(result.stdout.splitlines()[-1]))
    commands = {f"vault.cli.{module}" for module, _ in COMMANDS.values()}
    assert not commands & loaded
    heavy = {"sqlalchemy", "pydantic", "vault.api", "vault.extraction", "importlib.metadata"}
    assert not heavy & loaded

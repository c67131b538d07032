"""The layout is the architecture: imports point one way (contract in pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINT = str(Path(sys.executable).with_name("lint-imports"))


def lint(config: Path, package_root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [LINT, "--config", str(config), "--no-cache"],
        cwd=package_root,
        env={"PYTHONPATH": str(package_root), "PATH": ""},
        capture_output=True,
        text=True,
    )


def test_layers_import_only_downwards() -> None:
    result = lint(ROOT / "pyproject.toml", ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_contract_catches_an_upward_import(tmp_path: Path) -> None:
    """The same contract, on a copy of the layout where domain imports storage, fails."""
    package = tmp_path / "vault"
    for layer in (
        "domain",
        "storage",
        "services",
        "facade",
        "api",
        "cli",
        "mcp",
        "ui",
        "bench",
        "extraction",
        "prompt",
    ):
        (package / layer).mkdir(parents=True)
        (package / layer / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "storage" / "tables.py").write_text("")  # named by the CLI's contract
    (package / "storage" / "repositories").mkdir()
    (package / "storage" / "repositories" / "__init__.py").write_text("")
    (package / "domain" / "rules.py").write_text("import vault.storage\n")
    contract = (ROOT / "pyproject.toml").read_text().split("[tool.importlinter]", 1)[1]
    config = tmp_path / "pyproject.toml"
    config.write_text("[tool.importlinter]" + contract)
    result = lint(config, tmp_path)
    assert result.returncode == 1
    assert "vault.domain.rules -> vault.storage" in result.stdout

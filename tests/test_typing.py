"""The package type-checks under `mypy --strict` (settings in pyproject.toml)."""

from __future__ import annotations

from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parents[1]


def test_vault_package_passes_strict_mypy() -> None:
    stdout, stderr, status = api.run(
        ["--config-file", str(ROOT / "pyproject.toml"), str(ROOT / "vault")]
    )
    assert status == 0, stdout + stderr

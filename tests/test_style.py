"""The code is formatted and linted as pyproject.toml configures ruff (the suite runs it, so CI does)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _ruff() -> list[str]:
    found = shutil.which("ruff", path=str(Path(sys.executable).parent))
    if found is None:
        pytest.fail("ruff is not installed: pip install -e '.[test]'")
    return [found]


@pytest.mark.parametrize("command", [["format", "--check"], ["check"]], ids=["format", "check"])
def test_ruff_is_satisfied(command: list[str]) -> None:
    done = subprocess.run([*_ruff(), *command, "."], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr

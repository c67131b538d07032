"""Every ```python block of the README runs (each on its own, in an empty directory), and the
library example passes `mypy --strict` as an application would check it (py.typed shipped)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
SNIPPETS = re.findall(r"^```python\n(.*?)^```", README.read_text(encoding="utf-8"), re.S | re.M)


def test_the_readme_has_python_snippets() -> None:
    assert len(SNIPPETS) >= 3


@pytest.mark.parametrize("code", SNIPPETS, ids=[f"snippet{i}" for i in range(len(SNIPPETS))])
def test_every_readme_python_snippet_runs(code: str, tmp_path: Path) -> None:
    script = tmp_path / "snippet.py"
    script.write_text(code, encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True,
                          text=True, check=False, timeout=120)
    assert done.returncode == 0, done.stderr


def test_the_package_ships_py_typed() -> None:
    assert (ROOT / "vault" / "py.typed").is_file()


def test_the_library_example_passes_mypy_strict(tmp_path: Path) -> None:
    (library_example,) = [s for s in SNIPPETS if "open_vault(" in s and "v.merge(" in s]
    script = tmp_path / "app.py"
    script.write_text(library_example, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(script)],
        cwd=tmp_path, capture_output=True, text=True, check=False, timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr

"""The README's library example runs as printed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"


def test_library_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    snippet = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)[0]
    monkeypatch.chdir(tmp_path)
    exec(compile(snippet, "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert "['primary sport: running']" in out
    assert (tmp_path / "vault.db").exists()

"""`vault mcp`'s own mistakes are one line, and without the SDK it names the extra."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from vault import open_vault
from vault.cli import main
from vault.mcp import INSTALL_HINT, sdk_available
from vault.mcp.server import loopback


def one_line(db: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["--db", str(db), "mcp", *args])
    assert result.stdout == "" and len(result.stderr.splitlines()) == 1, result.output
    return result.exit_code, result.stderr


def test_without_the_sdk_it_names_the_extra_in_one_line(tmp_path: Path) -> None:
    blocked = (
        "import sys; sys.modules['mcp'] = None\n"  # as if `mcp` were not installed
        "from vault.cli import main; main(['--db', sys.argv[1], 'mcp', '--athlete', 'ana'])"
    )
    done = subprocess.run(
        [sys.executable, "-c", blocked, str(tmp_path / "v.db")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == f"Error: {INSTALL_HINT}\n"
    assert "pip install 'vault[mcp]'" in INSTALL_HINT and sdk_available()


@pytest.mark.parametrize(
    "args, code, words",
    [
        (("--athlete", "ana", "--http", "0.0.0.0:8765"), 2, "not a loopback address"),
        (("--athlete", "ana", "--http", "192.168.1.20:8765"), 2, "not a loopback address"),
        (("--athlete", "ana", "--http", "example.com:8765"), 2, "not a loopback address"),
        (("--athlete", "ana", "--http", "8765"), 2, "HOST:PORT"),
        (("--athlete", "ana", "--http", "127.0.0.1:99999"), 2, "HOST:PORT"),
        (("--athlete", "ana", "--allow-forget"), 2, "--allow-forget needs --allow-writes"),
        ((), 2, "--athlete"),
        (("--athlete", " "), 1, "athlete"),
    ],
)
def test_usage_mistakes_are_one_line(
    tmp_path: Path, args: tuple[str, ...], code: int, words: str
) -> None:
    with open_vault(tmp_path / "v.db", upgrade=True):
        pass
    exit_code, message = one_line(tmp_path / "v.db", *args)
    assert exit_code == code and message.startswith("Error: ") and words in message


def test_a_read_only_server_needs_an_existing_vault(tmp_path: Path) -> None:
    exit_code, message = one_line(tmp_path / "missing.db", "--athlete", "ana")
    assert exit_code == 1 and "vault upgrade" in message
    assert not (tmp_path / "missing.db").exists()


@pytest.mark.parametrize(
    "address, expected",
    [
        ("127.0.0.1:8765", ("127.0.0.1", 8765)),
        ("127.0.0.2:1", ("127.0.0.2", 1)),
        ("[::1]:8765", ("::1", 8765)),
        ("localhost:8765", ("localhost", 8765)),
    ],
)
def test_loopback_addresses_are_accepted(address: str, expected: tuple[str, int]) -> None:
    assert loopback(address) == expected

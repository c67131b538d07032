"""The engine's own Rust code, compiled as its guide prints it, against vault files.

Needs `cargo` and Debian's packaged crates in /usr/share/cargo/registry (`.ci/run` installs
librust-rusqlite-dev, librust-serde-json-dev, librust-chrono-dev, librust-serde-derive-dev);
the build is offline. Without them the module is skipped with one line saying what is missing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.engine.test_engine_table import fact, legacy_device, memory, rows, vault_block
from vault import FactIn, PatternIn, open_vault
from vault.cli import main

CRATE = Path(__file__).resolve().parent / "rust"
REGISTRY = Path("/usr/share/cargo/registry")
NEEDED = ("rusqlite-0.28", "serde_json-1", "chrono-0.4", "serde_derive-1")
CARGO = shutil.which("cargo") or str(Path.home() / ".cargo" / "bin" / "cargo")


def _missing() -> str | None:
    if not Path(CARGO).exists():
        return "cargo is not installed"
    have = {p.name for p in REGISTRY.iterdir()} if REGISTRY.is_dir() else set()
    lacking = [n for n in NEEDED if not any(h.startswith(n) for h in have)]
    if lacking:
        return f"Debian's crates are not installed ({', '.join(lacking)}); see .ci/run"
    return None


pytestmark = pytest.mark.skipif(_missing() is not None, reason=f"Rust engine check: {_missing()}")


def _build() -> tuple[Path, str | None]:
    """Build the engine once, when this module is collected, before any test has run: built
    from inside a session after other tests, rustc read stray bytes as its probe input in some
    runs (not understood; a clean process never did). Returns the binary and the build's
    error, if any."""
    scratch = Path(tempfile.mkdtemp(prefix="vault-rust-engine-"))
    home = scratch / "cargo-home"
    home.mkdir()
    (home / "config.toml").write_text(
        '[source.crates-io]\nreplace-with = "debian"\n\n'
        f'[source.debian]\ndirectory = "{REGISTRY}"\n\n[net]\noffline = true\n',
        encoding="utf-8",
    )
    target = Path(os.environ.get("VAULT_RUST_TARGET", scratch / "target"))
    env = {**os.environ, "CARGO_HOME": str(home), "CARGO_TARGET_DIR": str(target)}
    build = subprocess.run(
        [CARGO, "build", "--quiet", "--offline", "--manifest-path", str(CRATE / "Cargo.toml")],
        env=env,
        capture_output=True,
        text=True,
        timeout=1200,
        stdin=subprocess.DEVNULL,
    )
    (CRATE / "Cargo.lock").unlink(missing_ok=True)  # made by the build; depends on the registry
    failed = None if build.returncode == 0 else build.stderr[-3000:]
    return target / "debug" / "engine-memory-check", failed


_BUILT = _build() if _missing() is None else None


@pytest.fixture(scope="module")
def engine_binary() -> Iterator[Path]:
    assert _BUILT is not None
    binary, failed = _BUILT
    assert failed is None, failed
    yield binary


def run(binary: Path, db: Path, *args: str, stdin: str = "") -> str:
    done = subprocess.run(
        [str(binary), str(db), *args], input=stdin, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_compiled_engine_reads_writes_and_prints_the_same_block(
    engine_binary: Path, tmp_path: Path
) -> None:
    path = legacy_device(
        tmp_path / "vault.db",
        {
            "ana": memory(
                fact("primary sport: running"), fact("works night shifts", 1.1, "josi_chat")
            ),
        },
    )
    assert CliRunner().invoke(main, ["--db", str(path), "upgrade"]).exit_code == 0
    run(engine_binary, path, "ensure")  # the engine's next start
    assert run(engine_binary, path, "block", "ana") == "\n" + vault_block(path, "ana")
    assert json.loads(run(engine_binary, path, "read", "nobody")) is None

    with open_vault(path) as vault:  # vault learns; the engine sees it at its next read
        vault.merge(
            "ana",
            [
                FactIn(text="has recurring knee issue", confidence=0.9),
                PatternIn(text="skips after rest days | often"),
            ],
        )
    assert run(engine_binary, path, "block", "ana") == "\n" + vault_block(path, "ana")

    read = json.loads(run(engine_binary, path, "read", "ana"))
    read["key_facts"].append(
        {
            "fact": "prefers morning sessions",
            "source": "conversation",
            "confidence": 0.7,
            "learned_at": "2026-03-01T07:00:00Z",
        }
    )
    run(engine_binary, path, "write", "ana", stdin=json.dumps(read))
    assert "prefers morning sessions" in run(engine_binary, path, "block", "ana")
    with open_vault(path) as vault:
        vault.admin.sync_engine()
        assert "prefers morning sessions" in vault.memory_block("ana").text
    assert run(engine_binary, path, "block", "ana") == "\n" + vault_block(path, "ana")

    assert CliRunner().invoke(main, ["--db", str(path), "delete", "ana"]).exit_code == 0
    assert json.loads(run(engine_binary, path, "read", "ana")) is None


def test_the_compiled_engine_on_a_fresh_vault_file(engine_binary: Path, tmp_path: Path) -> None:
    path = tmp_path / "vault.db"
    with open_vault(path, upgrade=True) as vault:
        vault.remember("ana", "primary sport: cycling")
    run(engine_binary, path, "ensure")
    assert run(engine_binary, path, "block", "ana") == "\n" + vault_block(path, "ana")


# ---- what was erased stays erased, through the compiled engine (docs/engine.md) ---------------


def _engine_reads_ana(binary: Path, path: Path) -> str:
    """Vault knows ana; the engine reads her row to build a prompt and keeps what it read."""
    with open_vault(path, upgrade=True) as vault:
        vault.merge(
            "ana",
            [
                FactIn(text="has a sore knee zqxjv", category="injury", confidence=0.9),
                FactIn(text="primary sport: running"),
                PatternIn(text="skips Mondays after knee flare-ups"),
            ],
        )
    held = run(binary, path, "read", "ana")
    assert "zqxjv" in held and "knee flare-ups" in held
    return held


def _vault_sees(path: Path) -> tuple[set[str], list[str]]:
    with open_vault(path) as vault:
        vault.admin.sync_engine()
        if vault.summary("ana") is None:
            return set(), []
        return {f.text for f in vault.facts("ana")}, [p.text for p in vault.patterns("ana")]


def test_the_compiled_engines_stale_write_back_after_forget_brings_nothing_back(
    engine_binary: Path, tmp_path: Path
) -> None:
    path = tmp_path / "vault.db"
    held = _engine_reads_ana(engine_binary, path)
    assert CliRunner().invoke(main, ["--db", str(path), "forget", "ana", "knee"]).exit_code == 0
    run(engine_binary, path, "write", "ana", stdin=held)  # after the model answered: stale
    assert _vault_sees(path) == ({"primary sport: running"}, [])
    assert "knee" not in run(engine_binary, path, "block", "ana")
    assert run(engine_binary, path, "block", "ana") == "\n" + vault_block(path, "ana")


def test_the_compiled_engines_stale_write_back_after_delete_brings_nothing_back(
    engine_binary: Path, tmp_path: Path
) -> None:
    path = tmp_path / "vault.db"
    held = _engine_reads_ana(engine_binary, path)
    assert CliRunner().invoke(main, ["--db", str(path), "delete", "ana"]).exit_code == 0
    run(engine_binary, path, "write", "ana", stdin=held)
    assert _vault_sees(path) == (set(), [])
    assert json.loads(run(engine_binary, path, "read", "ana")) is None
    assert rows(path, "SELECT COUNT(*) FROM athletes WHERE id = 'ana'") == [(0,)]


def test_a_fact_the_compiled_engine_learns_after_the_erasure_is_kept(
    engine_binary: Path, tmp_path: Path
) -> None:
    """The engine's memory is stale, but the facts it adds are stamped `Utc::now()`: after the
    forget they are new statements, even one equal to the forgotten fact (said again)."""
    path = tmp_path / "vault.db"
    held = _engine_reads_ana(engine_binary, path)
    assert CliRunner().invoke(main, ["--db", str(path), "forget", "ana", "knee"]).exit_code == 0
    run(engine_binary, path, "learn", "ana", "goal: first triathlon", stdin=held)
    assert _vault_sees(path) == ({"primary sport: running", "goal: first triathlon"}, [])
    held = run(engine_binary, path, "read", "ana")
    run(engine_binary, path, "learn", "ana", "has a sore knee zqxjv", stdin=held)
    facts, _patterns = _vault_sees(path)
    assert "has a sore knee zqxjv" in facts
    assert run(engine_binary, path, "block", "ana") == "\n" + vault_block(path, "ana")


def test_a_fact_the_compiled_engine_learns_after_a_delete_starts_the_athlete_again(
    engine_binary: Path, tmp_path: Path
) -> None:
    path = tmp_path / "vault.db"
    held = _engine_reads_ana(engine_binary, path)
    assert CliRunner().invoke(main, ["--db", str(path), "delete", "ana"]).exit_code == 0
    run(engine_binary, path, "learn", "ana", "goal: first triathlon", stdin=held)
    assert _vault_sees(path) == ({"goal: first triathlon"}, [])

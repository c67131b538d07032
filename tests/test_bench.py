"""`python -m vault.bench` end to end on a tiny population (numbers are checked, never timings)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from vault.bench.__main__ import main

WITH_RAW = ("merge", "memory_block", "decay", "decay_noop")
VAULT_ONLY = ("ingest", "extraction", "import")


def test_bench_json_has_every_workload_and_both_sides_agree(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--athletes", "20", "--repeat", "3", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)

    assert report["backend"] == "sqlite" and report["athletes"] == 20
    assert {"platform", "python", "cpu_count", "sqlite"} <= set(report["machine"])
    workloads = report["workloads"]
    assert set(WITH_RAW + VAULT_ONLY) <= set(workloads)
    for name in WITH_RAW:
        assert workloads[name]["vault_us"] > 0 and workloads[name]["raw_us"] > 0, name
        assert workloads[name]["ratio"] > 0, name
    for name in VAULT_ONLY:
        assert workloads[name]["vault_us"] > 0, name
    assert workloads["memory_block"]["identical"] is True
    assert workloads["memory_block"]["checked"] > 0
    assert workloads["merge"]["same_rows"] is True
    assert workloads["decay"]["lowered"] > 0 and workloads["decay_noop"]["lowered"] == 0
    assert workloads["decay_noop"]["raw_lowered"] == 0


def test_the_peer_column_times_both_sides_when_the_bench_extra_is_installed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    pytest.importorskip("langgraph.store.sqlite", reason="the [bench] extra is not installed")
    assert main(["--athletes", "20", "--repeat", "3", "--json"]) == 0
    workloads = json.loads(capsys.readouterr().out)["workloads"]
    for name in ("top_facts", "remember"):
        assert workloads[name]["vault_us"] > 0 and workloads[name]["peer_us"] > 0, name
        assert workloads[name]["peer_ratio"] > 0


def test_without_the_peer_the_table_says_what_to_install(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from vault.bench import peer

    monkeypatch.setattr(peer, "available", lambda: False)
    assert main(["--athletes", "20", "--repeat", "3"]) == 0
    out = capsys.readouterr().out
    assert peer.INSTALL in out and "against the peer" not in out


@pytest.mark.parametrize("below_cap", [False, True])
def test_the_minimal_merge_comparison_runs_in_both_kinds(below_cap: bool) -> None:
    tool = Path(__file__).parents[1] / "tools" / "bench_minimal_merge.py"
    args = [sys.executable, str(tool), "--athletes", "10", "--merges", "20"]
    done = subprocess.run(
        args + (["--below-cap"] if below_cap else []), capture_output=True, text=True, check=True
    )
    assert ("(below the cap)" in done.stdout) is below_cap
    assert "ratio" in done.stdout and "Traceback" not in done.stderr

"""CLI start-up (issue 26, item 6): each vault process against the import it cannot avoid,
run alternately in one run, minimum of N runs each:

- `vault --version` and `vault --help` against `python -c "import click"` (target <= 2x)
- `vault prompt ATHLETE` on an existing file against `python -c "import sqlalchemy, click"`
  (target <= 2x)
- `vault mcp --athlete ATHLETE` until it has answered `initialize` on stdio, against
  `python -c "import mcp.server.mcpserver"` (target <= 1.3x)

    .venv/bin/python tools/bench_startup.py [--runs 12] [--db PATH] [--athlete ID]
    .venv/bin/python tools/bench_startup.py --instructions   # valgrind's instruction counts

With `--instructions` each process (but `vault mcp`, which waits on its stdin) runs once under
`valgrind --tool=callgrind` and the ratio is of the instructions it executed: the same figure
whatever else the machine is doing, where wall-clock ratios move with the load. It leaves out
what instructions do not show (waiting on the disk, page faults), so it complements the timed
run rather than replacing it.

Without --db a vault file is made in a temporary directory (`vault demo`). Run it with the
interpreter of the install being measured: a regular install (`pip install .`) has its bytecode
compiled at install time; an editable install under PYTHONDONTWRITEBYTECODE=1 compiles vault's
modules on every start, which is slower. Never asserted in tests (the machine's load decides
the microseconds); compare the ratios of one run.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "bench_startup", "version": "0"},
    },
}


def wall(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def instructions(command: list[str]) -> float:
    """Instructions the process executed (valgrind's callgrind, its own output discarded)."""
    result = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    for line in result.stderr.splitlines():
        if "Collected :" in line:
            return float(line.split(":")[-1])
    raise SystemExit(f"valgrind printed no instruction count: {result.stderr[-300:]}")


def until_initialized(command: list[str]) -> float:
    """From the start of the server process to the first line of its answer to `initialize`."""
    started = time.perf_counter()
    server = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    assert server.stdin is not None and server.stdout is not None
    server.stdin.write((json.dumps(INITIALIZE) + "\n").encode())
    server.stdin.flush()
    answer = server.stdout.readline()
    took = time.perf_counter() - started
    server.stdin.close()
    server.wait(timeout=30)
    if b'"result"' not in answer:
        raise SystemExit(f"no answer to initialize: {answer!r}")
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=12)
    parser.add_argument("--db", type=Path)
    parser.add_argument("--athlete", default="demo-athlete")
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="count instructions under valgrind instead of timing (not vault mcp)",
    )
    options = parser.parse_args()
    python = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        db = options.db
        if db is None:
            db = Path(tmp, "vault.db")
            subprocess.run(
                [python, "-m", "vault", "--db", str(db), "demo"],
                check=True,
                stdout=subprocess.DEVNULL,
            )
        script = Path(python).with_name("vault")  # the console script, as users run it
        vault = [str(script)] if script.exists() else [python, "-m", "vault"]
        pairs: list[tuple[str, str, Callable[[], float], Callable[[], float], float]] = [
            (
                "import click",
                "vault --version",
                lambda: wall([python, "-c", "import click"]),
                lambda: wall([*vault, "--version"]),
                2.0,
            ),
            (
                "import click",
                "vault --help",
                lambda: wall([python, "-c", "import click"]),
                lambda: wall([*vault, "--help"]),
                2.0,
            ),
            (
                "import sqlalchemy, click",
                "vault prompt",
                lambda: wall([python, "-c", "import sqlalchemy, click"]),
                lambda: wall([*vault, "--db", str(db), "prompt", options.athlete]),
                2.0,
            ),
            (
                "import mcp.server.mcpserver",
                "vault mcp (initialize)",
                lambda: wall([python, "-c", "import mcp.server.mcpserver"]),
                lambda: until_initialized(
                    [*vault, "--db", str(db), "mcp", "--athlete", options.athlete]
                ),
                1.3,
            ),
        ]
        if options.instructions:
            for base_name, name, command, base_command, target in [
                ("import click", "vault --version", [*vault, "--version"], ["import click"], 2.0),
                ("import click", "vault --help", [*vault, "--help"], ["import click"], 2.0),
                (
                    "import sqlalchemy, click",
                    "vault prompt",
                    [*vault, "--db", str(db), "prompt", options.athlete],
                    ["import sqlalchemy, click"],
                    2.0,
                ),
            ]:
                low = instructions([python, "-c", *base_command])
                took = instructions(command)
                verdict = "met" if took / low <= target else "NOT met"
                print(
                    f"{base_name}: {low / 1e6:.0f} M instructions   {name}: {took / 1e6:.0f} M   "
                    f"ratio {took / low:.2f} (target <= {target}x, {verdict})"
                )
            return
        for _, _, base, run, _ in pairs:  # warm the file system cache, not timed
            base()
            run()
        for base_name, name, base, run, target in pairs:
            base_times, run_times = [], []
            for _ in range(options.runs):
                base_times.append(base())
                run_times.append(run())
            low, took = min(base_times), min(run_times)
            verdict = "met" if took / low <= target else "NOT met"
            print(
                f"{base_name}: {low * 1000:.0f} ms   {name}: {took * 1000:.0f} ms   "
                f"ratio {took / low:.2f} (target <= {target}x, {verdict}; min of "
                f"{options.runs} alternating runs)"
            )


if __name__ == "__main__":
    main()

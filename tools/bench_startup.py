"""CLI start-up (issue 8, item 7): `vault prompt ATHLETE` on an existing file against
`python -c "import sqlalchemy, click"`, run alternately, minimum of N runs each.

    .venv/bin/python tools/bench_startup.py [--runs 12] [--db PATH] [--athlete ID]

Without --db a vault file is made in a temporary directory (`vault demo`). Run it with the
interpreter of the install being measured: a regular install (`pip install .`) has its bytecode
compiled at install time; an editable install under PYTHONDONTWRITEBYTECODE=1 compiles vault's
modules on every start, which is slower.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def wall(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=12)
    parser.add_argument("--db", type=Path)
    parser.add_argument("--athlete", default="demo-athlete")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = options.db
        if db is None:
            db = Path(tmp, "vault.db")
            subprocess.run(
                [sys.executable, "-m", "vault", "--db", str(db), "demo"],
                check=True,
                stdout=subprocess.DEVNULL,
            )
        baseline = [sys.executable, "-c", "import sqlalchemy, click"]
        script = Path(sys.executable).with_name("vault")  # the console script, as users run it
        launcher = [str(script)] if script.exists() else [sys.executable, "-m", "vault"]
        prompt = [*launcher, "--db", str(db), "prompt", options.athlete]
        wall(prompt)  # warm the file system cache, not timed
        base_times, prompt_times = [], []
        for _ in range(options.runs):
            base_times.append(wall(baseline))
            prompt_times.append(wall(prompt))
    base, took = min(base_times), min(prompt_times)
    print(
        f"import sqlalchemy, click: {base * 1000:.0f} ms   vault prompt: {took * 1000:.0f} ms   "
        f"ratio {took / base:.2f} (min of {options.runs} alternating runs)"
    )


if __name__ == "__main__":
    main()

"""The documentation is tested: every ```python block of README.md and docs/*.md runs on its own
in an empty directory, the README's library example passes `mypy --strict` as an application
would check it (py.typed shipped), its command table names every command, the analysts'
example queries run against the demo, and the README stays short."""

from __future__ import annotations

import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from vault.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = [README, *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)
SNIPPETS = [
    (f"{doc.relative_to(ROOT)}#{n}", code)
    for doc in DOCS
    for n, code in enumerate(FENCE.findall(doc.read_text(encoding="utf-8")))
]


def run_python(code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    script = cwd / "snippet.py"
    script.write_text(code, encoding="utf-8")
    return subprocess.run(
        [sys.executable, str(script)],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def test_the_docs_have_python_snippets() -> None:
    assert len(SNIPPETS) >= 4
    assert any(name.startswith("README.md") for name, _ in SNIPPETS)


@pytest.mark.parametrize("code", [c for _, c in SNIPPETS], ids=[n for n, _ in SNIPPETS])
def test_every_python_snippet_runs_in_an_empty_directory(code: str, tmp_path: Path) -> None:
    done = run_python(code, tmp_path)
    assert done.returncode == 0, done.stderr


def library_example() -> str:
    return FENCE.findall(README.read_text(encoding="utf-8"))[0]


def test_the_readme_library_example_prints_what_its_comments_say(tmp_path: Path) -> None:
    done = run_python(library_example(), tmp_path)
    lines = done.stdout.splitlines()
    assert lines[0] == "['primary sport: running']"
    assert lines[1] == "['primary sport: cycling']"  # the knee issue was retracted
    assert lines[2:5] == [
        "MEMORY:",
        "- Facts: primary sport: cycling",
        "- Patterns: tends to skip after rest days",
    ]
    assert lines[-1] == "True"
    assert (tmp_path / "vault.db").exists()


def test_the_library_example_uses_no_deprecated_name(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-W", "error::DeprecationWarning", "-c", library_example()],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr


def test_the_package_ships_py_typed() -> None:
    assert (ROOT / "vault" / "py.typed").is_file()


def test_the_library_example_passes_mypy_strict(tmp_path: Path) -> None:
    script = tmp_path / "app.py"
    script.write_text(library_example(), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(script)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def command_paths() -> list[str]:
    paths = []
    context = click.Context(main)
    for name in main.list_commands(context):
        command = main.get_command(context, name)
        if isinstance(command, click.Group):
            sub = click.Context(command, parent=context)
            paths += [f"{name} {s}" for s in command.list_commands(sub)]
        else:
            paths.append(name)
    return paths


def test_the_readme_command_table_names_every_command() -> None:
    rows = [
        line
        for line in README.read_text(encoding="utf-8").splitlines()
        if line.startswith("| `vault ")
    ]
    named = {re.match(r"\| `vault ([a-z-]+(?: [a-z]+)?)", row).group(1) for row in rows}  # type: ignore[union-attr]
    missing = [p for p in command_paths() if p not in named and p.split()[0] not in named]
    assert missing == []
    assert {"doctor", "erase"} <= named


def test_the_readme_fits_on_a_few_screens() -> None:
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 250


def test_the_readme_links_point_at_files_that_exist() -> None:
    for target in re.findall(r"\]\(([^)#]+)\)", README.read_text(encoding="utf-8")):
        assert (ROOT / target).exists(), target


def test_the_docs_describe_contracts_by_what_they_are() -> None:
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        assert not re.search(r"\bseeds? 00\d", text, re.IGNORECASE), doc.name
        assert not re.search(r"this machine|this round|installs offline here", text), doc.name


def test_the_analysts_example_queries_run_against_the_demo(tmp_path: Path) -> None:
    db = tmp_path / "demo.db"
    assert CliRunner().invoke(main, ["--db", str(db), "demo"]).exit_code == 0
    sql_doc = (ROOT / "docs" / "sql.md").read_text(encoding="utf-8")
    block = re.findall(r"```sql\n(.*?)```", sql_doc, re.DOTALL)[0]
    queries = [q.strip() for q in block.split(";") if q.strip().replace("\n", "").strip("- ")]
    assert len(queries) >= 5
    results = {}
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as raw:
        for query in queries:
            results[query.splitlines()[0]] = raw.execute(query).fetchall()
    assert results["-- athletes with an active injury"] == []  # the knee was resolved
    at_caps = results["-- athletes at the caps (15 facts, 5 patterns, 5 notes)"]
    assert [(athlete, notes) for athlete, _, _, notes in at_caps] == [("demo-athlete", 5)]
    assert ("marathon", 1) in results["-- most common goals"]

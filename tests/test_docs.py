"""The documentation is tested: every ```python block of README.md and docs/*.md runs on its own
in an empty directory, the README's library example passes `mypy --strict` as an application
would check it (py.typed shipped), its command table names every command, docs/cli.md shows an
example of every command and its ```console blocks print what they show, the analysts'
example queries run against the demo, and the README stays short."""

from __future__ import annotations

import re
import shlex
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


CLI_DOC = ROOT / "docs" / "cli.md"
CONSOLE = re.compile(r"^```console\n(.*?)^```", re.DOTALL | re.MULTILINE)
HEREDOC = re.compile(r"^cat > (\S+) <<'EOF'$")


def console_steps(doc: Path) -> list[tuple[str, str]]:
    """The `$ command` lines of a doc's console blocks, each with what follows it (the output
    it prints, or the text of a `cat > FILE <<'EOF'` here-document)."""
    steps: list[tuple[str, list[str]]] = []
    for block in CONSOLE.findall(doc.read_text(encoding="utf-8")):
        for line in block.splitlines():
            if line.startswith("$ "):
                steps.append((line[2:], []))
            else:
                assert steps, f"output before any command: {line!r}"
                steps[-1][1].append(line)
    return [(command, "\n".join(lines)) for command, lines in steps]


def printed_as_shown(shown: str, printed: str) -> bool:
    """`printed` is `shown`, where `...` stands for any text (a line of `...` for any lines)."""
    parts = []
    for line in shown.rstrip("\n").splitlines():
        if line.strip() == "...":
            parts.append(r"(?:[^\n]*\n)*")
        else:
            parts.append(".*".join(re.escape(p) for p in line.rstrip().split("...")) + r"\n")
    lines = [line.rstrip() for line in printed.rstrip("\n").splitlines()]
    return re.fullmatch("".join(parts), "".join(f"{line}\n" for line in lines)) is not None


def test_the_cli_examples_print_what_the_docs_show(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # an empty directory: the examples use ./vault.db
    monkeypatch.delenv("VAULT_DB", raising=False)
    monkeypatch.setattr(sys, "path", list(sys.path))  # an example's embedder module is found
    modules = set(sys.modules)
    try:
        for command, after in console_steps(CLI_DOC):
            if heredoc := HEREDOC.match(command):
                text, end = after.rsplit("\n", 1) if "\n" in after else ("", after)
                assert end == "EOF", command
                (tmp_path / heredoc.group(1)).write_text(text + "\n", encoding="utf-8")
                continue
            args = shlex.split(command)
            assert args[0] == "vault", f"the examples run vault and cat only: {command}"
            result = CliRunner().invoke(main, args[1:])
            assert result.exit_code == 0, (command, result.output, result.exception)
            assert printed_as_shown(after, result.stdout), (command, result.stdout)
    finally:
        for name in set(sys.modules) - modules:
            del sys.modules[name]


def test_the_cli_doc_has_an_example_of_every_command() -> None:
    fences = re.findall(r"^```(?:console|bash)\n(.*?)^```", CLI_DOC.read_text(), re.S | re.M)
    shown = set()
    for line in "\n".join(fences).splitlines():
        if found := re.match(r"(?:\$ )?vault (?:--db \S+ )?([a-z-]+)(?: ([a-z]+))?", line):
            shown.update({found.group(1), f"{found.group(1)} {found.group(2)}"})
    assert [path for path in command_paths() if path not in shown] == []

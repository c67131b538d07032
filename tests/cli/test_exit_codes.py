"""One exit code per kind of mistake, in every command: an option value outside its choices or
its range is a usage mistake (2, one line naming the option, no traceback), found by walking
every command `vault --help` lists; an athlete the vault does not know is a failure (1) for
every command that reads one athlete's memory."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from vault.cli import main

USAGE = 2


def commands(
    group: click.Group = main, path: tuple[str, ...] = (), parent: click.Context | None = None
) -> Iterator[tuple[tuple[str, ...], click.Command]]:
    ctx = click.Context(group, parent=parent, info_name=path[-1] if path else "vault")
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None
        if isinstance(command, click.Group):
            yield from commands(command, (*path, name), ctx)
        else:
            yield (*path, name), command


# options whose value a callback checks: a value each must refuse
CHECKED_BY_CALLBACK = {"--at": "yesterday", "--category": "astrology", "--db": " "}


def bad_values(option: click.Option) -> Iterator[str]:
    """Values outside the option's choices or range, as a user might type them."""
    kind = option.type
    if isinstance(kind, click.Choice):
        yield "not-a-choice"
    elif isinstance(kind, click.IntRange | click.FloatRange):
        if kind.min is not None:
            yield str(kind.min - 1)
        if kind.max is not None:
            yield str(kind.max + 1)
        if isinstance(kind, click.FloatRange):
            yield "nan"
    elif option.callback is not None:
        yield CHECKED_BY_CALLBACK[option.opts[0]]


WALK = [
    (path, option.opts[0], value)
    for path, command in commands()
    for option in command.params
    if isinstance(option, click.Option)
    for value in bad_values(option)
]
CASES = [pytest.param(*case, id=f"{' '.join(case[0])} {case[1]} {case[2]}") for case in WALK]


def one_line_usage_error(result: Result, *named: str) -> None:
    """Exit 2, one `Error:` line on stderr naming the option (or the value typed), no traceback."""
    assert result.exit_code == USAGE, (result.exit_code, result.output, result.exception)
    assert isinstance(result.exception, SystemExit), result.exception  # no traceback
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    assert any(name in lines[0] for name in named), lines[0]


def test_the_walk_finds_the_choice_and_range_options() -> None:
    found = {(" ".join(path), option) for path, option, _ in WALK}
    assert {
        ("remember", "--kind"),
        ("remember", "--category"),
        ("remember", "--confidence"),
        ("ingest", "--kind"),
        ("prompt", "--format"),
        ("relevant", "--limit"),
        ("recall", "--k"),
        ("episode add", "--at"),
        ("bootstrap", "--weekly-hours"),
    } <= found


@pytest.mark.parametrize(("path", "option", "value"), CASES)
def test_an_option_value_outside_its_choices_or_range_is_a_usage_mistake(
    tmp_path: Path, path: tuple[str, ...], option: str, value: str
) -> None:
    # the option comes first, so click checks it before any missing argument; `--opt=value`
    # so a negative number is not read as an option
    db = [] if option == "--db" else ["--db", str(tmp_path / "v.db")]
    one_line_usage_error(CliRunner().invoke(main, [*path, f"{option}={value}", *db]), option, value)
    # (click reads `erase --wait=-1` as the unknown option -1: still a usage mistake, exit 2)
    assert not (tmp_path / "v.db").exists()  # refused before anything was opened


@pytest.mark.parametrize(
    "args",
    [
        ("episode", "add", "ana", "ran", "--meta", "no-equals-sign"),
        ("recall", "ana", "hills", "--embedder", "not-a-spec"),
        ("recall", "ana", "hills", "--embedder", "no_such_module_here:Embedder"),
    ],
    ids=lambda args: " ".join(args[:2]) + " " + args[-2],
)
def test_a_value_the_command_checks_itself_is_a_usage_mistake_too(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    result = CliRunner().invoke(main, ["--db", str(tmp_path / "v.db"), *args])
    one_line_usage_error(result, args[-2])


@pytest.mark.parametrize(
    "args",
    [
        ("facts", "nobody"),
        ("recall", "nobody", "hills"),
        ("relevant", "nobody", "hills"),
        ("export", "nobody"),
        ("export", "nobody", "--contract"),
        ("forget", "nobody", "knee"),
        ("delete", "nobody"),
    ],
)
def test_an_athlete_the_vault_does_not_know_is_a_failure_for_every_reader(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    db = str(tmp_path / "v.db")
    assert CliRunner().invoke(main, ["--db", db, "remember", "ana", "goal: 10k"]).exit_code == 0
    result = CliRunner().invoke(main, ["--db", db, *args])
    assert result.exit_code == 1, (result.output, result.exception)
    assert isinstance(result.exception, SystemExit), result.exception
    assert result.stderr == "Error: no memory stored for athlete 'nobody'\n"

"""The root command, the shared options and the one place user errors become one-line messages.

Conventions every command follows (tests/cli/test_conventions.py holds them):

- `--db` (a file or a database URL; default `$VAULT_DB_URL`, `$VAULT_DB`, ./vault.db) is accepted
  before the command name and after it, and every command's `--help` shows it. `--json` and
  `--at ISO-TIME` are defined once here (`json_option`, `at_option`) and stacked on commands.
- results go to stdout; errors, warnings and progress bars to stderr.
- exit codes: 0 ok; 1 the operation failed (a refused input, a database problem); 2 a usage
  mistake (an unknown command or option, a missing argument, an option value that is not one of
  its choices or out of its range, an input file that does not exist). An error is ONE line on stderr (`Error: ...`), never a traceback. A closed pipe
  (`vault facts ana | head -5`) ends quietly with 0. Ctrl-C reports truthfully whether the
  write in progress was committed or rolled back (exit code 130).
"""

from __future__ import annotations

import difflib
import importlib
import json
import math
import os
import re
import signal
import sys
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from types import FrameType
from typing import IO, TYPE_CHECKING, Any, TextIO, TypeVar

import click

from vault import __version__
from vault.domain.errors import PrivacyRefused, VaultError
from vault.domain.times import parse_iso_time

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from vault.api import Vault

# Start-up: this module is loaded by every command, `vault --version` and `vault --help`
# included, so the library (SQLAlchemy, pydantic, the extraction rules) is imported by the
# functions that open a vault, not here.

F = TypeVar("F", bound=Callable[..., Any])

DB_HELP = "Vault file or database URL (default: $VAULT_DB_URL, $VAULT_DB, or ./vault.db)."
_DB_KEY = "vault.db_url"
_GUARD_KEY = "vault.write_guard"
_SURROGATE = re.compile("[\ud800-\udfff]")
INTERRUPTED = 130  # the shell's code for "killed by SIGINT"


class CliError(click.ClickException):
    """`Error: message` on one line of stderr, exit code 1 (line breaks are folded)."""

    def format_message(self) -> str:
        return " ".join(str(self.message).split())


class Interrupted(CliError):
    """Ctrl-C: what was committed and what was rolled back, exit code 130."""

    exit_code = INTERRUPTED


class OneLineUsageError(click.UsageError):
    """A usage mistake on one line of stderr (with where to find help), exit code 2."""

    def show(self, file: IO[Any] | None = None) -> None:
        hint = ""
        if self.ctx is not None:
            hint = f" (see `{self.ctx.command_path} --help`)"
        click.echo(f"Error: {' '.join(self.format_message().split())}{hint}", err=True)


def _one_line_usage(error: click.UsageError) -> OneLineUsageError:
    return OneLineUsageError(error.format_message(), error.ctx)


class WriteGuard:
    """Tells the truth about Ctrl-C: which writes committed before it and which rolled back.

    SIGINT is deferred from the moment a transaction starts committing until the command sees
    the commit return; `steps` counts what each finished transaction wrote (`note`).
    """

    def __init__(self) -> None:
        self.committing = False
        self.pending = False
        self.committed: list[str] = []
        self.current: str | None = None

    def attach(self, engine: Engine) -> None:
        from sqlalchemy import event

        event.listen(engine, "commit", self._on_commit)

    def _on_commit(self, _connection: Any) -> None:
        self.committing = True

    def handler(self, _signum: int, _frame: FrameType | None) -> None:
        if self.current is not None and self.committing:
            self.pending = True  # the commit is on its way: let it finish, then say so
            return
        raise KeyboardInterrupt

    @contextmanager
    def step(self, what: str) -> Iterator[None]:
        """One write (one transaction) called `what`; on return it is known to be committed."""
        self.current, self.committing = what, False
        yield
        self.committed.append(what)
        self.current, self.committing = None, False
        if self.pending:
            raise KeyboardInterrupt

    def report(self) -> str:
        done = f"; committed before it: {', '.join(self.committed)}" if self.committed else ""
        if self.current is not None:
            return f"interrupted: {self.current} was rolled back, nothing of it was written{done}"
        if self.committed:
            return f"interrupted after the work was committed: {', '.join(self.committed)}"
        return "interrupted: nothing was written"


class VaultGroup(click.Group):
    """Every command gets --db; the vault's errors become one line and exit code 1."""

    group_class = type  # a sub-group (`vault episode ...`) is a VaultGroup too: --db everywhere
    # command name -> module that defines it, imported only when that command runs (start-up)
    lazy_commands: dict[str, str] = {}
    summaries: dict[str, str] = {}  # command name -> its line in `--help`, for lazy commands

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in self.lazy_commands:
            importlib.import_module(self.lazy_commands[cmd_name])  # it registers itself
        return super().get_command(ctx, cmd_name)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError as error:
            name = args[0] if args else ""
            close = difflib.get_close_matches(name, [*self.commands, *self.lazy_commands], n=1)
            if not close or name.startswith("-"):
                raise
            raise click.UsageError(
                f"no such command {name!r}; did you mean {close[0]!r}?", ctx
            ) from error

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *self.lazy_commands})

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list of `--help`, from `summaries` for commands not loaded yet (so
        `vault --help` imports no command module); click's own layout otherwise."""
        rows = []
        for name in self.list_commands(ctx):
            command = self.commands.get(name)
            if command is None and name in self.summaries:
                rows.append((name, self.summaries[name]))
                continue
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str()))
        if rows:
            limit = formatter.width - 6 - max(len(name) for name, _ in rows)
            with formatter.section("Commands"):
                formatter.write_dl([(name, _shortened(help, limit)) for name, help in rows])

    def add_command(self, cmd: click.Command, name: str | None = None) -> None:
        if not any(isinstance(p, click.Option) and "--db" in p.opts for p in cmd.params):
            db_option(cmd)  # commands defined elsewhere get the shared option too
        super().add_command(cmd, name)

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        for position, arg in enumerate(args, 1):
            if _SURROGATE.search(arg):
                raise OneLineUsageError(
                    f"argument {position} is not valid UTF-8 (or holds a lone surrogate)"
                )
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.UsageError as error:
            raise _one_line_usage(error) from None

    def invoke(self, ctx: click.Context) -> Any:
        guard = WriteGuard()
        ctx.meta[_GUARD_KEY] = guard
        previous = _install_sigint(guard.handler)
        try:
            with _engine_writes_said_once():
                result = super().invoke(ctx)
            sys.stdout.flush()  # a closed pipe shows here, not at interpreter exit
            return result
        except BrokenPipeError:  # `vault facts ana | head -5`: the reader has what it wanted
            _quiet_stdout()
            ctx.exit(0)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            if isinstance(sys.exc_info()[1], click.UsageError):
                raise _one_line_usage(sys.exc_info()[1]) from None  # type: ignore[arg-type]
            raise
        except KeyboardInterrupt:
            raise Interrupted(guard.report()) from None
        except PrivacyRefused as error:
            raise CliError(error.how_to_vouch("--trusted")) from None
        except VaultError as error:
            raise CliError(str(error)) from None
        except RecursionError:
            raise CliError("the input is nested too deeply to read") from None
        except OverflowError as error:
            raise CliError(f"a number is out of range: {error}") from None
        except UnicodeError as error:
            raise CliError(f"the input is not valid UTF-8 text ({error})") from None
        except MemoryError:
            raise CliError("out of memory; the input is too large") from None
        except OSError as error:
            where = f"{error.filename}: " if error.filename else ""
            raise CliError(f"{where}{error.strerror or error}") from None
        except Exception as error:
            database_error = _database_error(error)
            if database_error is None:
                raise
            raise database_error from None
        finally:
            _install_sigint(previous)


class FloatRange(click.FloatRange):
    """click's FloatRange that also refuses `nan` (which every comparison lets through), so a
    number out of its range is a usage mistake (exit 2) whatever its spelling."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if math.isnan(number):
            self.fail(f"{value!r} is not a number.", param, ctx)
        return number


def _shortened(text: str, limit: int) -> str:
    """Click's own shortening of a command's help line (what `get_short_help_str` does)."""
    return click.Command("_", help=text).get_short_help_str(limit)


@contextmanager
def _engine_writes_said_once() -> Iterator[None]:
    """The command's first EngineWritesNotApplied warning as one `warning:` line; the rest are
    dropped. Every read of a vault it cannot write warns again (the library's contract), and
    Python's own record would show the caller's file and code line to a CLI user."""
    with warnings.catch_warnings():
        show_as_python_does = warnings.showwarning
        said = False

        def show(
            message: Warning | str,
            category: type[Warning],
            filename: str,
            lineno: int,
            file: TextIO | None = None,
            line: str | None = None,
        ) -> None:
            nonlocal said
            if not _is_engine_warning(category):
                show_as_python_does(message, category, filename, lineno, file, line)
            elif not said:
                said = True
                warn(str(message))

        warnings.showwarning = show
        yield


def _is_engine_warning(category: type[Warning]) -> bool:
    """An EngineWritesNotApplied (its module is loaded by whatever raised it: no import here)."""
    store = sys.modules.get("vault.facade.store")
    return store is not None and issubclass(category, store.EngineWritesNotApplied)


def _database_error(error: Exception) -> CliError | None:
    """A driver error (e.g. --db points at a file that is not SQLite) as one line; None for
    anything else. SQLAlchemy is imported only if a command has loaded it already."""
    exc = sys.modules.get("sqlalchemy.exc")
    if exc is None or not isinstance(error, exc.DBAPIError):
        return None
    return CliError(f"database error: {error.orig}")


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so nothing more is written to the closed pipe (Python's
    documented recipe for SIGPIPE)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real file descriptor (a test runner's stream)
        pass


def _install_sigint(handler: Any) -> Any:
    try:
        return signal.signal(signal.SIGINT, handler)
    except ValueError:  # not the main thread: leave the default
        return None if handler is None else signal.getsignal(signal.SIGINT)


# -- shared options: one definition each, stacked on every command


def _set_db(ctx: click.Context, _param: click.Parameter, value: str | None) -> None:
    if value is None:
        return
    if not value.strip():
        raise click.BadParameter(
            "give a vault file or database URL, not an empty string", param_hint="--db"
        )
    from vault.storage.engine import as_url

    ctx.meta[_DB_KEY] = as_url(value)


def db_option(f: F) -> F:
    """`--db PATH|URL`, accepted by the group and by every command (the later one wins)."""
    return click.option(
        "--db",
        metavar="PATH|URL",
        expose_value=False,
        callback=_set_db,
        help=DB_HELP,
    )(f)


def json_option(help: str = "Print JSON.") -> Callable[[F], F]:
    """`--json`, passed to the command as `as_json`."""
    return click.option("--json", "as_json", is_flag=True, help=help)


def _parse_at(_ctx: click.Context, _param: click.Parameter, value: str | None) -> datetime | None:
    return parse_at(value)


def at_option(help: str = "As of this time (default: now).") -> Callable[[F], F]:
    """`--at ISO-TIME` (timezone required), passed to the command as a datetime or None."""
    return click.option("--at", "at", metavar="ISO-TIME", callback=_parse_at, help=help)


def verbose_option(f: F) -> F:
    return click.option("--verbose", "-v", is_flag=True, help="Also print one line per row.")(f)


@click.group(cls=VaultGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="vault", message="%(prog)s %(version)s")
@db_option
def main() -> None:
    """vault: the memory an LLM coach keeps about each athlete, in a local SQLite file."""


def database_url(ctx: click.Context) -> str:
    """The URL --db (or the environment) names; an in-memory database is refused: every
    command opens its own connection, so what it wrote would be gone when it ends."""
    from vault.storage.engine import default_url, in_memory

    url = str(ctx.meta.get(_DB_KEY) or default_url())
    if in_memory(url):
        raise CliError("an in-memory database is gone when the command ends; give a file")
    return url


def committing(ctx: click.Context, what: str) -> Any:
    """`with committing(ctx, "the decay"):` around one write, so Ctrl-C is reported truthfully."""
    return write_guard(ctx).step(what)


def write_guard(ctx: click.Context) -> WriteGuard:
    guard: WriteGuard | None = ctx.meta.get(_GUARD_KEY)
    if guard is None:  # a command invoked outside the group (tests calling it directly)
        guard = ctx.meta[_GUARD_KEY] = WriteGuard()
    return guard


def open_from_cli(ctx: click.Context, *, create: bool = False, read_only: bool = False) -> Vault:
    """Open the vault named by --db. A missing file is created only by commands that write;
    commands that only read open it `read_only` (nothing on disk changes, not even the WAL)."""
    from vault.api import open_vault
    from vault.storage.engine import sqlite_file

    url = database_url(ctx)
    path = sqlite_file(url)
    # a 0-byte file is what a create killed before its first page leaves behind: still missing
    if path is not None and (not path.exists() or path.stat().st_size == 0):
        if not path.parent.is_dir():
            raise CliError(f"no vault at {path}: the directory {path.parent} does not exist")
        if not create:
            raise CliError(f"no vault at {path}; `vault upgrade` creates one")
        vault = open_vault(url, upgrade=True)
    else:
        vault = open_vault(url, read_only=read_only)
        waiting = vault.admin.engine_writes_waiting()
        if waiting and read_only:
            vault = _with_engine_writes_applied(vault, url, waiting)
        # otherwise the command's own write applies the oldest rows first (a batch) and its
        # reads of memory, export, copy and backup apply the rest: no writing command waits
        # here for a flood of rows of other athletes
    write_guard(ctx).attach(vault.engine)
    ctx.call_on_close(vault.close)
    return vault


def _with_engine_writes_applied(vault: Vault, url: str, waiting: int) -> Vault:
    """A reading command shows what the on-device engine wrote too: vault applies the engine's
    waiting rows first (one write transaction, as any vault write would), then reads. A file
    it may not write is read as it is, with a warning."""
    from vault.api import open_vault

    vault.close()
    apply_engine_writes(url, waiting)
    return open_vault(url, read_only=True)


def apply_engine_writes(url: str, waiting: int) -> None:
    """Apply the `waiting` engine rows of the vault at `url` (a warning when it cannot)."""
    from vault.api import open_vault

    try:
        with open_vault(url) as writable:
            writable.admin.sync_engine()
    except VaultError as error:
        _engine_writes_left_out(waiting, error)


def _engine_writes_left_out(waiting: int, error: VaultError) -> None:
    """Warn that the command reads the vault without the engine's `waiting` rows, and why. It is
    the library's EngineWritesNotApplied, so the command's later reads, which warn again, add
    no line (`_engine_writes_said_once`)."""
    from vault.facade.store import EngineWritesNotApplied

    rows, them = ("1 row", "it") if waiting == 1 else (f"{waiting} rows", "them")
    warnings.warn(
        f"{rows} the engine wrote {'is' if waiting == 1 else 'are'} not applied, so this "
        f"command leaves {them} out: {error}",
        EngineWritesNotApplied,
        stacklevel=2,
    )


def parse_at(value: str | None) -> datetime | None:
    """`--at ISO-TIME` (timezone required) or None for now."""
    if value is None:
        return None
    try:
        moment = parse_iso_time(value, "--at")
        moment.astimezone(timezone.utc)  # 9999-12-31T23:30-01:00 has no UTC form
        return moment
    except (ValueError, OverflowError) as error:
        raise click.BadParameter(str(error), param_hint="--at") from None


def echo_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False, default=str))


def warn(message: str) -> None:
    """A warning: on stderr, so a piped result stays clean."""
    click.echo(f"warning: {message}", err=True)

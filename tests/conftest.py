"""Shared fixtures: every test gets its own vault; no test touches a user's ./vault.db.

Backends. A test that uses the `vault` (or `vault_url`, `db`) fixture runs twice, on SQLite
(`[sqlite]`, a file in tmp_path) and on PostgreSQL (`[postgresql]`, marked `postgres`), unless
it reads the SQLite file itself: a test that asks for `db_path` checks writes with raw
`sqlite3` (the repository-tests-by-raw-SQL rule) and runs on SQLite only, as does a test marked
`sqlite_only`; one marked `postgres_only` runs on the server only. `db.rows(sql)` is the backend-neutral way to look at the stored rows.

PostgreSQL. `VAULT_TEST_PG_URL` names a server database to start from
(`postgresql+psycopg://postgres@127.0.0.1:5432/test`); the run creates its own database
`vault_test_<random>` there, upgrades it once, empties the vault's tables before each test
(TRUNCATE ... RESTART IDENTITY, so ids start at 1 as in a fresh file) and drops the database at
the end, so runs never see each other's rows. With `VAULT_TEST_PG_PARTITIONS=N` that database is
made by `vault upgrade --partitions N` (every athlete-owned table hash-partitioned by athlete);
.ci/run runs the PostgreSQL half a second time that way.

Routing. While the PostgreSQL half runs, every statement vault sends is checked the way Citus
routes it (vault.storage.routing): a statement of a per-athlete operation that reads or writes
an athlete-owned table without an equality on the athlete id, or joins athlete-owned tables on
anything else, fails the test that sent it. Without the variable or a server, the PostgreSQL
half is skipped with one `SKIPPED [n] tests/conftest.py: ...` line; `VAULT_REQUIRE_PG=1`
(set by .ci/run) turns that skip into an error.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import os
import pkgutil
import secrets
import sys
import textwrap
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import freezegun
import pytest
from sqlalchemy import Connection, Engine, create_engine, event, exc
from sqlalchemy.engine import make_url

import vault as vault_package
from vault import Vault, open_vault
from vault.storage import routing
from vault.storage.engine import create_vault_engine, display_url, sqlite_url
from vault.storage.migrations import create_partitioned
from vault.storage.scope import scope

T0 = datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc)

# A frozen clock must not freeze pytest's own timer (`--durations` printed 1.7e9 s setups).
freezegun.configure(extend_ignore_list=["_pytest.timing"])


def _build_every_model_on_the_real_clock() -> None:
    """vault's pydantic models build their schema on first use (start-up time, issue 26). One
    first used inside a test's frozen clock would be built with freezegun's fake datetime class
    as its field type and fail in every later test, so the order of tests would decide the
    outcome: build them all now."""
    from pydantic import BaseModel

    for module in pkgutil.walk_packages(vault_package.__path__, "vault."):
        try:
            importlib.import_module(module.name)
        except ImportError:  # an optional extra that is not installed
            continue
    pending = list(BaseModel.__subclasses__())
    while pending:
        model = pending.pop()
        pending.extend(model.__subclasses__())
        if model.__module__.startswith("vault."):
            model.model_rebuild()


_build_every_model_on_the_real_clock()

PG_URL_ENV = "VAULT_TEST_PG_URL"
PARTITIONS_ENV = "VAULT_TEST_PG_PARTITIONS"  # N: the run's database is made by --partitions N
REQUIRE_PG_ENV = "VAULT_REQUIRE_PG"
SQLITE, POSTGRESQL = "sqlite", "postgresql"
BACKEND_FIXTURES = {"vault", "vault_url", "db"}
# Tests that use the `vault` fixture but look at SQLite itself (no marker needed in their files).
SQLITE_ONLY = {
    "test_transactions.py::test_every_connection_gets_the_vault_pragmas": "reads SQLite PRAGMAs",
    "test_interchange.py::test_the_largest_64_bit_id_is_only_a_label": "reads sqlite_sequence",
}


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    names = set(metafunc.fixturenames)
    if "backend" not in names or not names & BACKEND_FIXTURES:
        return
    if "pg_vault" in names or _sqlite_only(metafunc.definition):
        return  # SQLite only (the `backend` default), or pairs a SQLite vault with pg_vault
    if "db_path" in names and not _reads_only_through_rows(metafunc.function):
        return  # reads the SQLite file itself (sqlite3, bytes, a second open): SQLite only
    server = pytest.param(POSTGRESQL, id=POSTGRESQL, marks=pytest.mark.postgres)
    if metafunc.definition.get_closest_marker("postgres_only"):
        metafunc.parametrize("backend", [server], indirect=True)
        return
    metafunc.parametrize("backend", [pytest.param(SQLITE, id=SQLITE), server], indirect=True)


def _reads_only_through_rows(function: Any) -> bool:
    """True when the test uses `db_path` only as `rows(db_path, sql, ...)`: its module's raw-SQL
    helper, which the PostgreSQL half swaps for `Db.rows` (see `_rows_on_the_server`)."""
    try:
        source = textwrap.dedent(inspect.getsource(function))
    except (OSError, TypeError):
        return False
    tree = ast.parse(source)
    body = tree.body[0]
    if not isinstance(body, ast.FunctionDef) or "sqlite3" in source:
        return False
    if not callable(function.__globals__.get("rows")):
        return False
    through_rows = {
        id(node.args[0])
        for node in ast.walk(body)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "rows"
        and node.args
    }
    uses = [n for n in ast.walk(body) if isinstance(n, ast.Name) and n.id == "db_path"]
    return bool(uses) and all(id(n) in through_rows for n in uses)


@pytest.fixture(autouse=True)
def _rows_on_the_server(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """PostgreSQL half of a `rows(db_path, ...)` test: its module's `rows` reads the server."""
    if getattr(request, "param", None) is not None or "backend" not in request.fixturenames:
        return
    if request.getfixturevalue("backend") != POSTGRESQL or "db_path" not in request.fixturenames:
        return
    server = Db(request.getfixturevalue("vault"))
    monkeypatch.setitem(
        request.function.__globals__, "rows", lambda _path, sql, *params: server.rows(sql, *params)
    )


def _sqlite_only(item: pytest.Item) -> bool:
    nodeid = item.nodeid.split("[", 1)[0]
    return item.get_closest_marker("sqlite_only") is not None or any(
        nodeid.endswith(key) for key in SQLITE_ONLY
    )


@pytest.fixture(autouse=True)
def _isolated_default_vault(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No test touches the user's ./vault.db."""
    monkeypatch.delenv("VAULT_DB_URL", raising=False)
    monkeypatch.setenv("VAULT_DB", str(tmp_path / "default-vault.db"))


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "vault.db"


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """`sqlite` or `postgresql`: the backend of this test's `vault`."""
    return str(getattr(request, "param", SQLITE))


SKIP_PREFIX = "PostgreSQL half of the suite"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """Every PostgreSQL-half skip points at this file, so `-ra` folds them into one line."""
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    longrepr = report.longrepr
    if report.skipped and isinstance(longrepr, tuple) and SKIP_PREFIX in str(longrepr[2]):
        line = _unavailable.__code__.co_firstlineno - 1
        report.longrepr = (__file__, line, longrepr[2])


def _unavailable(reason: str) -> None:
    message = f"{SKIP_PREFIX}: {reason}"
    if os.environ.get(REQUIRE_PG_ENV, "") not in ("", "0"):
        pytest.fail(f"{message} ({REQUIRE_PG_ENV} is set: CI must run it)", pytrace=False)
    pytest.skip(message)


# Every statement vault sends to PostgreSQL while a test runs, that would not route to one
# shard (vault.storage.routing): the test fails at teardown, naming the statement. "Vault
# sends": the code that called SQLAlchemy is the vault package (a test's own SQL is not).
UNROUTED = "vault_test_unrouted"  # execution option of the tests' own SQL (Db, emptying)
VAULT_PACKAGE = str(Path(vault_package.__file__).resolve().parent) + os.sep
_not_routed: list[tuple[str, tuple[str, ...]]] = []


def _sent_by_vault() -> bool:
    frame = sys._getframe(2)
    while frame is not None:
        name = frame.f_code.co_filename
        if name.startswith(VAULT_PACKAGE):
            return True
        if f"{os.sep}sqlalchemy{os.sep}" not in name and not name.endswith("contextlib.py"):
            return False
        frame = frame.f_back
    return False


@event.listens_for(Engine, "before_cursor_execute")
def _check_routing(
    connection: Connection, _cursor: Any, statement: str, _params: Any, _context: Any, _many: bool
) -> None:
    if connection.dialect.name != POSTGRESQL or connection.get_execution_options().get(UNROUTED):
        return
    if not _sent_by_vault():
        return
    found = routing.problems(statement, scope())
    if found:
        _not_routed.append((statement, found))


@pytest.fixture(autouse=True)
def _every_statement_routes_to_one_shard() -> Iterator[None]:
    _not_routed.clear()
    yield
    if _not_routed:
        lines = [f"{'; '.join(why)}: {sql}" for sql, why in dict(_not_routed).items()]
        _not_routed.clear()
        pytest.fail("statements that would not route to one shard:\n" + "\n".join(lines))


@pytest.fixture(scope="session")
def pg_admin_url() -> str:
    """The server database this run starts from (`VAULT_TEST_PG_URL`)."""
    url = os.environ.get(PG_URL_ENV, "")
    if not url:
        _unavailable(f"{PG_URL_ENV} is not set (.ci/run sets it)")
    return url


@pytest.fixture(scope="session")
def pg_server_url(pg_admin_url: str) -> Iterator[str]:
    """A throwaway database of this run, at the newest schema; dropped at the end."""
    parsed = make_url(pg_admin_url)
    if "+" not in parsed.drivername:
        parsed = parsed.set(drivername="postgresql+psycopg")
    try:
        admin = create_engine(
            parsed, isolation_level="AUTOCOMMIT", connect_args={"connect_timeout": 3}
        )
        with admin.connect() as connection:
            connection.exec_driver_sql("SELECT 1")
    except (exc.DBAPIError, ImportError, exc.NoSuchModuleError) as error:
        _unavailable(f"no server at {display_url(pg_admin_url)}: {str(error).splitlines()[0]}")
    name = f"vault_test_{secrets.token_hex(5)}"
    with admin.connect() as connection:
        connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
    url = parsed.set(database=name).render_as_string(hide_password=False)
    try:
        partitions = int(os.environ.get(PARTITIONS_ENV) or 0)
        if partitions:  # the PostgreSQL half against hash-partitioned tables (.ci/run's 2nd pass)
            engine = create_vault_engine(url)
            create_partitioned(engine, partitions)
            engine.dispose()
        open_vault(url, upgrade=True).close()
        yield url
    finally:
        with admin.connect() as connection:
            connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()


@pytest.fixture(scope="session")
def _pg_cleaner(pg_server_url: str) -> Iterator[Engine]:
    engine = create_engine(pg_server_url)
    yield engine
    engine.dispose()


def empty_pg_vault(engine: Engine) -> None:
    """Every vault table emptied and its ids restarted: a fresh vault, without re-migrating."""
    with engine.begin() as connection:
        connection = connection.execution_options(**{UNROUTED: True})
        connection.exec_driver_sql("SET LOCAL lock_timeout = '20s'")
        tables = (
            connection.exec_driver_sql(
                "SELECT quote_ident(tablename) FROM pg_tables "
                "WHERE schemaname = current_schema() AND tablename <> 'alembic_version'"
            )
            .scalars()
            .all()
        )  # every table the migrations made, whoever added it
        connection.exec_driver_sql(f"TRUNCATE {', '.join(tables)} RESTART IDENTITY CASCADE")


@pytest.fixture
def vault_url(backend: str, request: pytest.FixtureRequest) -> str:
    """The URL of this test's (empty, upgraded) vault on its backend."""
    if backend == POSTGRESQL:
        empty_pg_vault(request.getfixturevalue("_pg_cleaner"))
        return str(request.getfixturevalue("pg_server_url"))
    path: Path = request.getfixturevalue("db_path")
    open_vault(path, upgrade=True).close()
    return sqlite_url(path)


@pytest.fixture
def vault(vault_url: str) -> Iterator[Vault]:
    with open_vault(vault_url) as opened:
        yield opened


class Db:
    """Raw SQL on the vault under test, the same on both backends.

    Times come back in the canonical text form (`2026-03-02T08:00:00.000000Z`), whatever the
    backend stores, so expectations are written once.
    """

    def __init__(self, vault: Vault) -> None:
        self.engine = vault.engine
        self.backend = vault.engine.dialect.name

    def rows(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        """Rows of `sql`; `?` placeholders on both backends."""
        statement = sql if self.backend == SQLITE else sql.replace("?", "%s")
        with self.engine.connect().execution_options(**{UNROUTED: True}) as connection:
            result = connection.exec_driver_sql(statement, tuple(params))
            return [tuple(_canonical_time(v) for v in row) for row in result]

    def execute(self, sql: str, *params: Any) -> None:
        statement = sql if self.backend == SQLITE else sql.replace("?", "%s")
        with self.engine.connect().execution_options(**{UNROUTED: True}) as connection:
            connection.exec_driver_sql(statement, tuple(params))
            connection.commit()


def _canonical_time(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    return value


@pytest.fixture
def db(vault: Vault) -> Db:
    return Db(vault)

"""The scope of the statements the current thread sends: one athlete (every operation's
default), all athletes (decay, cleanup, stats, copy, doctor, ... declare it) or maintenance
(migrations). `vault.storage.routing` checks statements against it; this module stays free of
the SQL parser so that reading a scope costs no import."""

from __future__ import annotations

import contextvars
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Literal

Scope = Literal["athlete", "all", "maintenance"]
_SCOPE: contextvars.ContextVar[Scope] = contextvars.ContextVar("vault_routing_scope")

# the tenant columns: the column naming the athlete in every athlete-owned table
TENANT_COLUMNS = ("athlete_id", "owner_id", "athlete_key")


def scope() -> Scope:
    return _SCOPE.get("athlete")


@contextmanager
def operation_scope(kind: Scope) -> Iterator[None]:
    """Declare the scope of the statements sent inside (an all-athlete pass, a migration)."""
    token = _SCOPE.set(kind)
    try:
        yield
    finally:
        _SCOPE.reset(token)

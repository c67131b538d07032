"""The only place the bench calls the interchange functions.

Their first argument is moving from a `Vault` to a unit of work; the adapter reads the
annotation and passes what the function takes, so the bench runs on either side of the change.
"""

from __future__ import annotations

import copy
import inspect
from collections.abc import Callable
from typing import Any

from vault.api import Vault
from vault.storage.uow import UnitOfWork


def _takes_unit_of_work(function: Callable[..., Any]) -> bool:
    first = next(iter(inspect.signature(function).parameters.values()))
    return "UnitOfWork" in str(first.annotation)


def export_one(vault: Vault, athlete: str) -> dict[str, Any]:
    """One athlete as a `vault-export` document."""
    from vault.services.interchange import export_athlete

    function: Callable[..., Any] = export_athlete
    if _takes_unit_of_work(function):
        with UnitOfWork(vault.engine) as uow:
            return dict(function(uow, athlete))
    return dict(function(vault, athlete))


def renamed(document: dict[str, Any], athlete: str) -> dict[str, Any]:
    """A copy of `document` for another athlete id, so each import really writes rows."""
    result = copy.deepcopy(document)
    result["athlete"]["id"] = athlete
    return result


def import_one(vault: Vault, document: dict[str, Any]) -> bool:
    """Import a document in one transaction; True when it wrote something."""
    from vault.services.interchange import import_document

    function: Callable[..., Any] = import_document
    if _takes_unit_of_work(function):
        with vault.unit_of_work() as uow:
            report = function(uow, document)
            uow.commit()
    else:
        report = function(vault, document)
    return bool(report.changed)

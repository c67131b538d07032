"""`vault copy` of a vault that is being written: one consistent snapshot of the source is
copied and verified, whatever the writer commits meanwhile."""

from __future__ import annotations

import threading
from pathlib import Path

from tests.conftest import T0
from vault import FactIn, Vault, open_vault
from vault.services.copy import vault_checksum
from vault.storage.repositories.copy import layout


def test_copy_of_a_live_vault_is_one_consistent_snapshot(
    vault: Vault, vault_url: str, tmp_path: Path
) -> None:
    for i in range(30):
        vault.merge(
            f"seed{i:02d}", [FactIn(text=f"goal: {i}k"), FactIn(text="likes hills")], now=T0
        )
    stop = threading.Event()
    written: list[int] = []
    failures: list[BaseException] = []

    def write() -> None:
        try:
            with open_vault(vault_url) as writer:
                n = 0
                while not stop.is_set():
                    writer.merge(f"live{n:04d}", [FactIn(text="likes trails")], now=T0)
                    writer.merge(f"seed{n % 30:02d}", [FactIn(text=f"level: {n % 3 + 1}")], now=T0)
                    n += 1
                    written.append(n)
        except BaseException as error:  # noqa: BLE001 - reported below
            failures.append(error)

    thread = threading.Thread(target=write)
    thread.start()
    try:
        while len(written) < 5:  # the writer is running before the copy starts
            stop.wait(0.01)
        reports = []
        for n in range(3):
            with open_vault(tmp_path / f"copy{n}.db", upgrade=True) as destination:
                report = vault.transfer.copy_to(destination)
                with destination.engine.connect() as connection:
                    assert vault_checksum(connection, layout()) == report.checksum
                assert destination.admin.athlete_count() == report.athletes
                reports.append(report)
    finally:
        stop.set()
        thread.join()
    assert failures == []
    assert len(written) > 5 and all(r.athletes >= 30 for r in reports)

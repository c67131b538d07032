"""Forgetting or deleting an episode erases its vector from the file's bytes, like its text."""

from __future__ import annotations

import struct
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path

from tests.reliability.conftest import on_disk
from vault import open_vault

NOW = datetime(2026, 5, 20, 15, 0, tzinfo=timezone.utc)
MARK = 7919.125  # exact in float32: its 4 bytes appear only in the secret episode's vector
MARK_BYTES = struct.pack("<f", MARK) * 4


class SecretMarking:
    model = "marking"
    dim = 6

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [[MARK] * 4 + [1.0, 2.0] if "zebra" in t else [_plain(t)] * 6 for t in texts]


def _plain(text: str) -> float:
    return 0.375 if text.startswith("bob") else 0.25


def _store(path: Path) -> None:
    with open_vault(path) as vault:
        for owner in ("ana", "bob"):
            vault.episodes.add(
                owner,
                [
                    {"text": f"{owner} saw a zebra at the zoo", "at": NOW},
                    {"text": f"{owner} ran easy by the river", "at": NOW},
                ],
                now=NOW,
                embedder=SecretMarking(),
            )
    assert on_disk(path).count(MARK_BYTES) == 2  # the check can fail: the bytes are there


def test_forget_erases_the_vector_bytes(vault_file: Path) -> None:
    _store(vault_file)
    with open_vault(vault_file) as vault:
        assert vault.episodes.forget("ana", "zebra")["episodes"] == 1
        vault.delete_athlete("bob")
        assert vault.admin.erase(wait=1.0) is True
    data = on_disk(vault_file)
    assert MARK_BYTES not in data
    assert struct.pack("<f", 0.375) * 6 not in data  # bob's other vector went with him
    assert struct.pack("<f", 0.25) * 6 in data  # ana's other episode keeps its vector

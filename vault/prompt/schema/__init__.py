"""The JSON Schemas vault promises to other programs, shipped as package data.

`athlete_memory.schema.json` is the athlete-memory plan §2a's `athlete_memory` property, byte for byte as the
seed writes it (the JSON value after `"athlete_memory": `): no `$schema`, no additions.
tests/cli/test_contract_exact.py compares it with the text extracted from the seed file.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

ATHLETE_MEMORY_SCHEMA = "athlete_memory.schema.json"


@functools.lru_cache(maxsize=4)
def _schema_text(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def load_schema(name: str = ATHLETE_MEMORY_SCHEMA) -> dict[str, Any]:
    """A fresh copy of the named schema (read from the package once per process)."""
    schema: dict[str, Any] = json.loads(_schema_text(name))
    return schema

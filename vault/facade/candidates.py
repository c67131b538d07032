"""What `merge` accepts: candidates validated, capped per call and privacy-checked."""

from __future__ import annotations

import itertools
from typing import Any, cast

from pydantic import BaseModel

from vault.domain.errors import InvalidInput
from vault.domain.limits import ITEMS_PER_CALL
from vault.domain.models import Candidate, FactIn, NoteIn, PatternIn, Retraction, validated
from vault.services import privacy_gate

_CANDIDATE_TYPES = (FactIn, PatternIn, NoteIn, Retraction)
_MODELS: dict[str, type[BaseModel]] = {"fact": FactIn, "pattern": PatternIn, "note": NoteIn}


def checked_candidates(candidates: Any, *, trusted: bool) -> list[Candidate]:
    """Validated candidates (at most ITEMS_PER_CALL, read lazily); InvalidInput for anything
    else. The privacy gate is the merge service's (vault.services.privacy_gate)."""
    privacy_gate.require_bool(trusted)
    if candidates is None or isinstance(candidates, (str, bytes, dict, BaseModel)):
        raise InvalidInput(
            "candidates must be a list of FactIn, PatternIn, NoteIn, Retraction or dicts"
        )
    try:
        taken = list(itertools.islice(iter(candidates), ITEMS_PER_CALL + 1))
    except TypeError:
        raise InvalidInput(f"candidates must be a list, got {type(candidates).__name__}") from None
    if len(taken) > ITEMS_PER_CALL:
        raise InvalidInput(f"at most {ITEMS_PER_CALL} candidates per merge")
    return [_candidate(c) for c in taken]


def _candidate(candidate: Candidate | dict[str, Any]) -> Candidate:
    if isinstance(candidate, _CANDIDATE_TYPES):
        return candidate
    if isinstance(candidate, dict):
        kind = candidate.get("kind", "fact")
        data = {k: v for k, v in candidate.items() if k != "kind"}
        model = _MODELS.get(kind)
        if model is None:
            raise InvalidInput(f"kind must be fact, pattern or note, got {kind!r}")
        return cast(Candidate, validated(model, data))
    raise InvalidInput(
        f"cannot merge a {type(candidate).__name__}; give a FactIn, PatternIn, NoteIn or dict"
    )

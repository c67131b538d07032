"""Mine a whole conversation: only the athlete's own turns are read, never the coach's."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from vault.domain.models import AwareTime, Candidate, validated
from vault.domain.vocabulary import Source
from vault.extraction.base import Extractor
from vault.extraction.privacy import scrub
from vault.extraction.rules import RuleExtractor

Role = Literal["user", "athlete", "assistant", "coach", "system"]
ATHLETE_ROLES: frozenset[str] = frozenset({"user", "athlete"})


class Turn(BaseModel):
    """One turn of a conversation; `at` (timezone-aware) becomes the facts' observation time."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    role: Role
    text: str = Field(max_length=20_000)
    at: AwareTime | None = None


def mine_conversation(
    turns: Sequence[Turn | Mapping[str, Any]],
    extractor: Extractor | None = None,
    *,
    source: Source = Source.CONVERSATION,
    conversation_ref: str | None = None,
) -> list[Candidate]:
    """Candidates from the athlete's turns ("user" / "athlete"), in turn order.

    Assistant, coach and system turns are skipped: what the coach says ("you prefer mornings,
    right?") is not evidence about the athlete. Each candidate's `source_ref` is the turn's
    time (ISO-8601) when known, else `conversation_ref`.

    Raises:
        InvalidInput: a turn is not a valid `Turn`.
    """
    reader = extractor or RuleExtractor()
    candidates: list[Candidate] = []
    for raw in turns:
        turn = validated(Turn, raw)
        if turn.role not in ATHLETE_ROLES or not turn.text.strip():
            continue
        ref = turn.at.isoformat() if turn.at else conversation_ref
        candidates.extend(
            reader.extract(turn.text, source=source, source_ref=ref, observed_at=turn.at)
        )
    return scrub(candidates)

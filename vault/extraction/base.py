"""The extractor protocol: text in, vault candidates out, every fact stamped with its provenance."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol, runtime_checkable

from vault.domain.models import Candidate
from vault.domain.vocabulary import Source


@runtime_checkable
class Extractor(Protocol):
    """Anything that reads a message or a note and proposes candidates to merge.

    Implementations must be pure (no database, no clock) and set, on every `FactIn`, `source`,
    `source_ref`, `observed_at` and `extractor` ("rules:<rule>", "llm:<model>", ...), so each
    stored fact can say where it came from. The rule-based `RuleExtractor` is the default;
    `LLMExtractor` adapts a language model; an app may bring its own.
    """

    name: str

    def extract(
        self,
        text: str,
        *,
        source: Source,
        source_ref: str | None = None,
        observed_at: datetime | None = None,
    ) -> list[Candidate]:
        """Candidates (facts, patterns, notes, retractions) read in `text`; [] when none."""
        ...

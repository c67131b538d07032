"""The oasis-memory design's system-prompt section: "## What you know about the user" and one line per fact.

    ## What you know about the user
    - primary sport: running
    - has recurring knee issue

Facts with confidence >= 0.3, at most 15, by confidence then recency (`last_reinforced_at`,
which the oasis-memory design calls `updated_at`: the time the fact was last seen again), then the oldest id.
Texts go through `items.inline`, so no fact can open a new line, heading or list item. No
qualifying fact gives "".
"""

from __future__ import annotations

from vault.domain.limits import ACTIVE_FLOOR, MAX_FACTS
from vault.domain.models import AthleteMemory
from vault.prompt.items import confidence_of, inline, ranked

HEADING = "## What you know about the user\n"


def render_markdown(
    memory: AthleteMemory, *, limit: int = MAX_FACTS, min_confidence: float = ACTIVE_FLOOR
) -> str:
    """The markdown section for `memory`, or "" when no fact qualifies."""
    lines: list[str] = []
    for fact in ranked(memory.facts):
        if len(lines) >= limit:
            break
        text = inline(fact.text)
        if text and confidence_of(fact) >= min_confidence:
            lines.append(f"- {text}\n")
    return HEADING + "".join(lines) if lines else ""

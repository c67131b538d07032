"""What the coach model sees: the MEMORY block, its token budget, and the other renderings.

All functions here are pure: they take an `AthleteMemory` (or plain values) and return text or
frozen models, with no database access and no clock reads.

- `render_memory_block`: the engine guide's `MEMORY:` block inside a token budget, with a drop report.
- `fit_context`: the whole prompt inside the athlete-memory plan §7's 1024-token window, shrinking memory first.
- `render_markdown`: the oasis-memory design's "## What you know about the user" section.
- `render_sections`: the episodic-memory design's KNOWLEDGE / PAST EXPERIENCE sections, ranking injected.
- `to_contract` / `validate_contract`: the athlete-memory plan §2a's `athlete_memory` JSON object.
- `facts_from_profile`: day-one facts from an athlete's profile.
- `count_tokens` / `encoder`: the offline tokenizer, loaded once per process.
"""

from typing import TYPE_CHECKING

from vault._exports import lazy_exports

_HOMES = {
    "EPISODE_BUDGET": "vault.domain.limits",
    "PROFILE_CONFIDENCE": "vault.prompt.bootstrap",
    "Profile": "vault.prompt.bootstrap",
    "facts_from_profile": "vault.prompt.bootstrap",
    "RESERVED_OUTPUT": "vault.prompt.context",
    "WINDOW": "vault.prompt.context",
    "ContextFit": "vault.prompt.context",
    "PromptTooLong": "vault.prompt.context",
    "assemble": "vault.prompt.context",
    "fit_context": "vault.prompt.context",
    "to_contract": "vault.prompt.contract",
    "validate_contract": "vault.prompt.contract",
    "EpisodeSections": "vault.prompt.episodes",
    "render_episode_sections": "vault.prompt.episodes",
    "inline": "vault.prompt.items",
    "render_markdown": "vault.prompt.markdown",
    "DEFAULT_BUDGET": "vault.prompt.memory_block",
    "DROP_ORDER": "vault.prompt.memory_block",
    "Dropped": "vault.prompt.memory_block",
    "DropReason": "vault.prompt.memory_block",
    "Included": "vault.prompt.memory_block",
    "MemoryBlock": "vault.prompt.memory_block",
    "render_memory_block": "vault.prompt.memory_block",
    "render_rows": "vault.prompt.memory_block",
    "Ranker": "vault.prompt.sections",
    "render_sections": "vault.prompt.sections",
    "DEFAULT_ENCODING": "vault.prompt.tokens",
    "count_tokens": "vault.prompt.tokens",
    "encoder": "vault.prompt.tokens",
}
__getattr__, __dir__ = lazy_exports(__name__, _HOMES, globals())

if TYPE_CHECKING:  # what type checkers and IDEs see
    from vault.domain.limits import EPISODE_BUDGET
    from vault.prompt.bootstrap import PROFILE_CONFIDENCE, Profile, facts_from_profile
    from vault.prompt.context import (
        RESERVED_OUTPUT,
        WINDOW,
        ContextFit,
        PromptTooLong,
        assemble,
        fit_context,
    )
    from vault.prompt.contract import to_contract, validate_contract
    from vault.prompt.episodes import EpisodeSections, render_episode_sections
    from vault.prompt.items import inline
    from vault.prompt.markdown import render_markdown
    from vault.prompt.memory_block import (
        DEFAULT_BUDGET,
        DROP_ORDER,
        Dropped,
        DropReason,
        Included,
        MemoryBlock,
        render_memory_block,
        render_rows,
    )
    from vault.prompt.sections import Ranker, render_sections
    from vault.prompt.tokens import DEFAULT_ENCODING, count_tokens, encoder

__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_ENCODING",
    "EPISODE_BUDGET",
    "EpisodeSections",
    "DROP_ORDER",
    "PROFILE_CONFIDENCE",
    "RESERVED_OUTPUT",
    "WINDOW",
    "ContextFit",
    "DropReason",
    "Dropped",
    "Included",
    "MemoryBlock",
    "Profile",
    "PromptTooLong",
    "Ranker",
    "assemble",
    "count_tokens",
    "encoder",
    "facts_from_profile",
    "fit_context",
    "inline",
    "render_episode_sections",
    "render_markdown",
    "render_memory_block",
    "render_rows",
    "render_sections",
    "to_contract",
    "validate_contract",
]

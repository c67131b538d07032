"""Learning from conversations and activity notes: extractors, privacy, patterns, relevance.

    from vault.extraction import RuleExtractor, Source
    candidates = RuleExtractor().extract(
        "I run most mornings, usually 45 minutes", source=Source.USER_MESSAGE
    )
    # [FactIn('primary sport: running'), FactIn('prefers morning sessions'),
    #  FactIn('typical duration: 45 min')] -> merge them with the vault

Everything here is pure: no database, no clock. The storage layer merges what these functions
return (`FactIn`, `PatternIn`, `NoteIn`, `Retraction`) in one transaction.
"""

from typing import TYPE_CHECKING

from vault._exports import lazy_exports

_HOMES = {
    "Source": "vault.domain.vocabulary",
    "ActivityIn": "vault.extraction.activity",
    "extract_from_activity": "vault.extraction.activity",
    "Extractor": "vault.extraction.base",
    "ATHLETE_ROLES": "vault.extraction.conversation",
    "Turn": "vault.extraction.conversation",
    "mine_conversation": "vault.extraction.conversation",
    "DEFAULT_CONFIDENCE": "vault.extraction.llm",
    "EXTRACTION_PROMPT": "vault.extraction.llm",
    "LLM_CATEGORIES": "vault.extraction.llm",
    "LLMExtractor": "vault.extraction.llm",
    "build_prompt": "vault.extraction.llm",
    "parse_llm_reply": "vault.extraction.llm",
    "analyze_patterns": "vault.extraction.patterns",
    "check_candidate": "vault.extraction.privacy",
    "find_pii": "vault.extraction.privacy",
    "redact": "vault.extraction.privacy",
    "scrub": "vault.extraction.privacy",
    "scrub_text": "vault.extraction.privacy",
    "rank_relevant": "vault.extraction.relevance",
    "relevance_score": "vault.extraction.relevance",
    "RuleExtractor": "vault.extraction.rules",
}
__getattr__, __dir__ = lazy_exports(__name__, _HOMES, globals())

if TYPE_CHECKING:  # what type checkers and IDEs see
    from vault.domain.vocabulary import Source
    from vault.extraction.activity import ActivityIn, extract_from_activity
    from vault.extraction.base import Extractor
    from vault.extraction.conversation import ATHLETE_ROLES, Turn, mine_conversation
    from vault.extraction.llm import (
        DEFAULT_CONFIDENCE,
        EXTRACTION_PROMPT,
        LLM_CATEGORIES,
        LLMExtractor,
        build_prompt,
        parse_llm_reply,
    )
    from vault.extraction.patterns import analyze_patterns
    from vault.extraction.privacy import check_candidate, find_pii, redact, scrub, scrub_text
    from vault.extraction.relevance import rank_relevant, relevance_score
    from vault.extraction.rules import RuleExtractor

__all__ = [
    "ATHLETE_ROLES",
    "DEFAULT_CONFIDENCE",
    "EXTRACTION_PROMPT",
    "LLM_CATEGORIES",
    "ActivityIn",
    "Extractor",
    "LLMExtractor",
    "RuleExtractor",
    "Source",
    "Turn",
    "analyze_patterns",
    "build_prompt",
    "check_candidate",
    "extract_from_activity",
    "find_pii",
    "mine_conversation",
    "parse_llm_reply",
    "rank_relevant",
    "redact",
    "relevance_score",
    "scrub",
    "scrub_text",
]

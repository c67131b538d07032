"""How much a single reading is believed: a passing or indirect mention enters below the
prompt's 0.5, where only repetition (another message, another session) can lift it.

The rules decide *what* a clause says; this decides how sure one clause can make the vault.
An explicit first-person statement of a durable trait keeps the rule's confidence ("I'm a
nurse", "I run most mornings"). Politeness towards the other speaker ("Me too! I love running")
is not such a statement: people echo what they do not do.
"""

from __future__ import annotations

from dataclasses import replace

from vault.extraction.clauses import Clause
from vault.extraction.findings import Finding

PASSING = 0.45  # below the prompt; one more mention (+0.1) lifts it in


def believed(finding: Finding, clause: Clause) -> Finding:
    """`finding` with the confidence one reading of `clause` can give it."""
    if finding.is_retraction or finding.confidence <= PASSING:
        return finding
    if clause.echo:
        return replace(finding, confidence=PASSING)
    return finding

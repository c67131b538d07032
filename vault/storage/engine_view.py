"""The engine's `athlete_memory`, a view computed when it is read (revision 0016, SQLite).

The engine's own statements (seed 000, Step 2) keep working unchanged:

- `CREATE TABLE IF NOT EXISTS athlete_memory (...)` is a no-op: a view holds the name;
- `SELECT memory_json FROM athlete_memory WHERE athlete_id = ?1` reads the document SQL builds
  from the athlete's items: exactly the MEMORY block's (`vault.prompt.memory_block`): facts at
  0.5 or more, the 15/5/5 caps, the token budget, the block's priority order and inline text;
- `INSERT OR REPLACE INTO athlete_memory ...` lands in `engine_inbox` through an INSTEAD OF
  trigger, with the document the engine replaced (`previous_json`); until vault applies it, the
  view shows the engine's latest waiting row for that key, as a table would.

No write of vault renders or stores the row: a merge writes its items and nothing else.

The token budget needs each item's tokens, which SQL cannot count: every item is stored with
its inline text (NULL when equal to its text) and the tokens of " text" and " text\\n"
(`vault.prompt.memory_block.item_pieces`, exact because cl100k cuts the block at every piece
boundary). A line's tokens are its label, its items' inside counts but the last one's line-end
count, and a separator per gap; the block's are the sum of its lines plus the header. Items are
dropped whole in the block's order (facts from the lowest, then notes, then patterns) until the
rest fits, which comes down to the largest number of facts that fits beside all notes and
patterns, else the largest number of notes beside all patterns, else of patterns. Each level is
one window over the athlete's at most 25 items, inside a subquery correlated with the athlete
(a window over a whole-table view would not be narrowed by the engine's WHERE). An item counted
by nothing yet (written by another program) is left out until `vault upgrade` counts it.

This module spells the SQL from vault's limits and vocabulary for `repair`; the revision holds
the same text, frozen (tests/engine/test_engine_view.py compares them).
"""

from __future__ import annotations

from vault.domain.limits import MAX_FACTS, MAX_LIST_ITEMS, PROMPT_BUDGET_TOKENS, PROMPT_FLOOR
from vault.domain.vocabulary import CONTRACT_SOURCE, Source

VIEW_NAME = "athlete_memory"
TRIGGER_NAME = "athlete_memory_engine_write"

# cl100k tokens of "MEMORY:\n", "- Facts:", "- Patterns:", "- Notes:" and " |" (each item piece
# brings its own leading space); tests/engine/test_engine_view.py counts them
HEADER_TOKENS = 2
LABEL_TOKENS = {"f": 3, "p": 3, "n": 3}
SEPARATOR_TOKENS = 1

_ORDER = "confidence DESC, last_reinforced_at DESC, id"  # vault.prompt.items: priority
_SHOWN = "COALESCE(inline_text, text)"
_COUNTED = f"athlete_id = a.id AND inline_tokens IS NOT NULL AND {_SHOWN} <> ''"
_TABLES = {"f": "facts", "p": "patterns", "n": "notes"}
_CAPS = {"f": MAX_FACTS, "p": MAX_LIST_ITEMS, "n": MAX_LIST_ITEMS}


def _waiting(alias: str) -> str:
    """An engine write not applied yet (nor kept unread)."""
    return f"{alias}.refused IS NULL AND {alias}.origin = 'engine'"


# a stored source as the engine's three words (CONTRACT_SOURCE); the conversation's is the rest
_CONVERSATION = CONTRACT_SOURCE[Source.CONVERSATION]
_SOURCE = (
    "CASE source "
    + "".join(
        f"WHEN '{source.value}' THEN '{word}' "
        for source, word in CONTRACT_SOURCE.items()
        if word != _CONVERSATION
    )
    + f"ELSE '{_CONVERSATION}' END"
)


def _where(kind: str) -> str:
    return _COUNTED + (f" AND confidence >= {PROMPT_FLOOR}" if kind == "f" else "")


def _utc_text(column: str) -> str:
    """Stored canonical UTC text as `vault.prompt.items.utc_text` writes it (no zero fraction)."""
    return (
        f"CASE WHEN substr({column}, 20, 7) = '.000000' "
        f"THEN substr({column}, 1, 19) || 'Z' ELSE {column} END"
    )


def _ranked(kind: str) -> str:
    origin = "source, learned_at" if kind == "f" else "NULL AS source, NULL AS learned_at"
    return (
        f"SELECT * FROM (SELECT '{kind}' AS kind, row_number() OVER (ORDER BY {_ORDER}) AS r, "
        f"{_SHOWN} AS shown, inline_tokens AS t, inline_tokens_last AS tl, confidence, {origin} "
        f"FROM {_TABLES[kind]} WHERE {_where(kind)}) WHERE r <= {_CAPS[kind]}"
    )


def _fitting(kind: str, beside: str) -> str:
    """The most items of `kind` whose line fits the budget beside `beside` tokens."""
    room = f"{PROMPT_BUDGET_TOKENS} - {HEADER_TOKENS}"
    return (
        f"COALESCE(MAX(CASE WHEN kind = '{kind}' AND cost + {beside} <= {room} THEN r END) "
        "OVER (), 0)"
    )


def _document() -> str:
    label = f"CASE kind WHEN 'f' THEN {LABEL_TOKENS['f']} WHEN 'p' THEN {LABEL_TOKENS['p']} ELSE {LABEL_TOKENS['n']} END"
    items = " UNION ALL ".join(_ranked(kind) for kind in ("f", "p", "n"))
    # cost: the tokens of the kind's line holding its items 1..r
    costed = (
        f"SELECT *, {label} + COALESCE(SUM(t) OVER (PARTITION BY kind ORDER BY r ROWS BETWEEN "
        f"UNBOUNDED PRECEDING AND 1 PRECEDING), 0) + tl + {SEPARATOR_TOKENS} * (r - 1) AS cost "
        f"FROM ({items})"
    )
    whole = (
        "SELECT *, COALESCE(MAX(CASE kind WHEN 'p' THEN cost END) OVER (), 0) AS p_all, "
        "COALESCE(MAX(CASE kind WHEN 'n' THEN cost END) OVER (), 0) AS n_all, "
        "COALESCE(MAX(CASE kind WHEN 'p' THEN r END) OVER (), 0) AS p_n, "
        f"COALESCE(MAX(CASE kind WHEN 'n' THEN r END) OVER (), 0) AS n_n FROM ({costed})"
    )
    room = f"{PROMPT_BUDGET_TOKENS} - {HEADER_TOKENS}"
    fits = (
        f"SELECT *, CASE WHEN n_all + p_all <= {room} THEN {_fitting('f', 'n_all + p_all')} "
        f"END AS f_fit, CASE WHEN p_all <= {room} THEN {_fitting('n', 'p_all')} END AS n_fit, "
        f"{_fitting('p', '0')} AS p_fit FROM ({whole})"
    )
    kept = (
        "SELECT *, COALESCE(f_fit, 0) AS kf, "
        "CASE WHEN f_fit IS NOT NULL THEN n_n ELSE COALESCE(n_fit, 0) END AS kn, "
        "CASE WHEN f_fit IS NOT NULL OR n_fit IS NOT NULL THEN p_n ELSE p_fit END AS kp "
        f"FROM ({fits})"
    )
    fact = (
        f"json_object('fact', shown, 'source', {_SOURCE}, 'confidence', confidence, "
        f"'learned_at', {_utc_text('learned_at')})"
    )
    return (
        "(SELECT CASE WHEN MAX(kf + kn + kp) > 0 THEN json_object("
        f"'key_facts', json_group_array({fact}) FILTER (WHERE kind = 'f' AND r <= kf), "
        "'patterns', json_group_array(shown) FILTER (WHERE kind = 'p' AND r <= kp), "
        "'coaching_notes', json_group_array(shown) FILTER (WHERE kind = 'n' AND r <= kn), "
        f"'updated_at', {_utc_text('a.updated_at')}) END "
        f"FROM (SELECT * FROM ({kept}) ORDER BY kind, r))"
    )


def _top_alone(kind: str) -> str:
    """The tokens of the kind's line holding only its first item (NULL: no item)."""
    return (
        f"(SELECT inline_tokens_last + {LABEL_TOKENS[kind]} FROM {_TABLES[kind]} "
        f"WHERE {_where(kind)} ORDER BY {_ORDER} LIMIT 1)"
    )


# The block is empty exactly when its last state before empty does not fit: the first pattern
# alone, else the first note alone, else the first fact alone (every earlier state holds it).
# Said apart from the document so that no row computes its document twice.
_NOT_EMPTY = (
    f"COALESCE({_top_alone('p')}, {_top_alone('n')}, {_top_alone('f')}) + {HEADER_TOKENS} "
    f"<= {PROMPT_BUDGET_TOKENS}"
)

CREATE_VIEW = (
    f"CREATE VIEW {VIEW_NAME} (athlete_id, memory_json, updated_at) AS "
    "SELECT w.athlete_id, w.memory_json, w.written_at FROM engine_inbox AS w "
    f"WHERE {_waiting('w')} AND w.id = (SELECT MAX(x.id) FROM engine_inbox AS x "
    f"WHERE x.athlete_id = w.athlete_id AND {_waiting('x')}) "
    "UNION ALL "
    f"SELECT a.id, {_document()}, replace(substr(a.updated_at, 1, 19), 'T', ' ') "
    "FROM athletes AS a "
    "WHERE NOT EXISTS (SELECT 1 FROM engine_inbox AS x "
    f"WHERE x.athlete_id = a.id AND {_waiting('x')}) "
    f"AND {_NOT_EMPTY}"
)

# The engine's INSERT OR REPLACE: queued with what it replaced; NOT NULL as the table had it.
CREATE_TRIGGER = (
    f"CREATE TRIGGER {TRIGGER_NAME} INSTEAD OF INSERT ON {VIEW_NAME} BEGIN "
    "SELECT RAISE(ABORT, 'NOT NULL constraint failed: athlete_memory.memory_json') "
    "WHERE NEW.memory_json IS NULL; "
    "INSERT INTO engine_inbox (athlete_id, memory_json, previous_json, written_at, origin) "
    "VALUES (NEW.athlete_id, NEW.memory_json, "
    f"(SELECT memory_json FROM {VIEW_NAME} WHERE athlete_id = NEW.athlete_id), "
    "COALESCE(NEW.updated_at, CURRENT_TIMESTAMP), 'engine'); END"
)
# The view reads the waiting rows of one key
CREATE_INBOX_INDEX = "CREATE INDEX ix_engine_inbox_athlete_id ON engine_inbox (athlete_id, id)"

# For datasette's metadata (vault.cli.datasette_commands), as the other views' words
ENGINE_VIEW_DOCS: tuple[str, dict[str, str]] = (
    "The on-device engine's row per athlete: the MEMORY block's items as its JSON document, "
    "computed when read (its own writes show here until vault applies them).",
    {
        "athlete_id": "whose memory this is (the engine's key, as it wrote it, while it waits)",
        "memory_json": "the engine's AthleteMemory document: key_facts, patterns, coaching_notes",
        "updated_at": "when the memory last changed (UTC, as CURRENT_TIMESTAMP writes it)",
    },
)

"""The routing check (vault.storage.routing): what Citus sends to one shard, and what it cannot."""

from __future__ import annotations

import pytest

from vault.storage.routing import problems
from vault.storage.scope import operation_scope, scope

ROUTED = [
    "SELECT facts.id FROM facts WHERE facts.athlete_id = %(athlete)s",
    "SELECT f.id, t.tag FROM facts AS f LEFT OUTER JOIN fact_tags AS t "
    "ON t.athlete_id = f.athlete_id AND t.fact_id = f.id WHERE f.athlete_id = %(athlete)s",
    "UPDATE facts SET confidence = %(c)s WHERE facts.athlete_id = %(a)s AND facts.id = %(i)s",
    "INSERT INTO fact_tags (athlete_id, fact_id, tag) VALUES (%(a)s, %(f)s, %(t)s)",
    "SELECT athletes.id FROM athletes WHERE athletes.id = %(athlete)s FOR UPDATE",
    "SELECT knowledge.id FROM knowledge",  # a reference table: on every worker
    "SELECT * FROM active_patterns WHERE active_patterns.athlete_id = %(athlete)s",
    "INSERT INTO archive_tags (athlete_id, archive_id, tag) SELECT archive.athlete_id, "
    "archive.id, fact_tags.tag FROM archive JOIN fact_tags ON fact_tags.athlete_id = "
    "archive.athlete_id AND fact_tags.fact_id = archive.original_id "
    "WHERE archive.athlete_id = %(athlete)s",
    "SELECT count(*) FROM facts AS f WHERE (f.athlete_id)::text = 'ana'",
]
NOT_ROUTED = [
    ("UPDATE facts SET confidence = %(c)s WHERE facts.id = %(i)s", "facts"),
    (
        "SELECT f.id, t.tag FROM facts AS f JOIN fact_tags AS t ON t.fact_id = f.id "
        "WHERE f.athlete_id = %(athlete)s",
        "fact_tags",
    ),
    ("SELECT * FROM athlete_summary", "athlete_summary"),
    ("DELETE FROM episode_vectors WHERE episode_vectors.episode_id IN (%(ids)s)", "episode_"),
    ("SELECT facts.id FROM facts WHERE facts.athlete_id IN (%(a)s, %(b)s)", "facts"),
]


@pytest.mark.parametrize("sql", ROUTED)
def test_a_statement_filtered_by_one_athlete_routes(sql: str) -> None:
    assert problems(sql) == ()


@pytest.mark.parametrize(("sql", "table"), NOT_ROUTED)
def test_a_statement_without_an_athlete_equality_does_not_route(sql: str, table: str) -> None:
    (found,) = problems(sql)
    assert "no equality on the athlete id" in found and table in found


def test_an_all_athlete_pass_may_scan_but_joins_only_on_the_athlete() -> None:
    assert problems("SELECT count(*) FROM facts", "all") == ()
    joined = "SELECT count(*) FROM facts JOIN fact_tags ON fact_tags.fact_id = facts.id"
    assert "joined on something other than the athlete id" in problems(joined, "all")[0]
    paired = (
        "SELECT count(*) FROM facts JOIN fact_tags ON fact_tags.athlete_id = facts.athlete_id "
        "AND fact_tags.fact_id = facts.id"
    )
    assert problems(paired, "all") == ()
    assert problems("UPDATE facts SET confidence = 1", "maintenance") == ()


def test_the_scope_is_declared_per_operation() -> None:
    assert scope() == "athlete"
    with operation_scope("all"):
        assert scope() == "all"
    assert scope() == "athlete"

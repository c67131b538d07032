"""The tools that only read: the MEMORY block, facts with their evidence, recall, history."""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations
from pydantic import Field

from vault.domain.errors import FactNotFound
from vault.domain.limits import MAX_FACTS, MAX_NOTES, MAX_PATTERNS
from vault.domain.models import Fact, ListItem
from vault.mcp.port import VaultPort
from vault.mcp.refusals import refusals
from vault.mcp.schemas import (
    AboutArg,
    ArchivedItem,
    AthleteArg,
    AthleteList,
    AthleteOverview,
    DroppedItem,
    FactHistory,
    FactList,
    Format,
    MemoryDocument,
    MemoryItem,
    OptionalQueryArg,
    QueryArg,
    RecalledEpisode,
    RecallResult,
    TopicList,
    TopicRow,
    limit_arg,
)
from vault.mcp.scope import Scope
from vault.prompt.memory_block import DEFAULT_BUDGET

READ_ONLY = ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)
MAX_ITEMS = MAX_FACTS + MAX_PATTERNS + MAX_NOTES
MAX_BUDGET = 4_000


def register_read_tools(server: MCPServer, port: VaultPort, scope: Scope) -> None:
    @server.tool(name="vault_read_memory", title="Read the athlete's memory", annotations=READ_ONLY)
    def read_memory(
        athlete_id: AthleteArg = None,
        format: Format = "memory",
        budget: Annotated[
            int,
            Field(
                ge=1,
                le=MAX_BUDGET,
                description="Token budget of the MEMORY block, header included.",
            ),
        ] = DEFAULT_BUDGET,
    ) -> MemoryDocument:
        """What the coach knows about the athlete, ready to put into a prompt.

        format=memory (default) is the MEMORY block the coach model receives: the most
        confident facts, patterns and notes within `budget` tokens, with the ids shown and what
        was left out. format=markdown lists every active item as a markdown section.
        Call it at the start of a conversation about the athlete."""
        with refusals():
            athlete = scope.athlete(athlete_id)
            if format == "markdown":
                return MemoryDocument(
                    athlete_id=athlete, format=format, text=port.markdown(athlete)
                )
            block = port.memory_block(athlete, budget)
            included = [*block.included.facts, *block.included.patterns, *block.included.notes]
            return MemoryDocument(
                athlete_id=athlete,
                format=format,
                text=block.text,
                tokens=block.tokens,
                budget=block.budget,
                included_ids=included,
                dropped=[
                    DroppedItem(kind=d.kind.value, id=d.id, text=d.text, reason=d.reason.value)
                    for d in block.dropped
                ],
            )

    @server.tool(
        name="vault_search_facts",
        title="Search the athlete's facts, with evidence",
        annotations=READ_ONLY,
    )
    def search_facts(
        athlete_id: AthleteArg = None,
        query: OptionalQueryArg = None,
        limit: Annotated[int, limit_arg(MAX_ITEMS, MAX_ITEMS)] = MAX_ITEMS,
    ) -> FactList:
        """List the athlete's active facts, patterns and notes, each with its confidence and
        evidence (source, source_ref, extractor, when it was observed and how often seen).

        With `query`, the items most relevant to it come first (and only those that match);
        without, every active item, facts first, most confident first. Ids are what
        `vault_fact_history` takes."""
        with refusals():
            athlete = scope.athlete(athlete_id)
            found: list[Fact | ListItem]
            if query is not None and query.strip():
                found = port.relevant(athlete, query, limit)
            else:
                memory = port.memory(athlete)
                everything: list[Fact | ListItem] = [*memory.facts, *memory.patterns, *memory.notes]
                found = everything[:limit]
            return FactList(
                athlete_id=athlete, query=query, items=[MemoryItem.of(item) for item in found]
            )

    @server.tool(name="vault_recall_episodes", title="Recall past episodes", annotations=READ_ONLY)
    def recall_episodes(
        query: QueryArg,
        athlete_id: AthleteArg = None,
        limit: Annotated[int, limit_arg(3, 100)] = 3,
    ) -> RecallResult:
        """The athlete's past episodes (sessions and their outcome, injuries, races) most
        relevant to `query`, best first, with a score. Use it when planning or reviewing
        training: "how did the last long run in the heat go?"."""
        with refusals():
            athlete = scope.athlete(athlete_id)
            episodes = port.recall(athlete, query, limit)
            return RecallResult(
                athlete_id=athlete, query=query, episodes=[RecalledEpisode.of(e) for e in episodes]
            )

    @server.tool(
        name="vault_conversation_topics", title="List conversation topics", annotations=READ_ONLY
    )
    def conversation_topics(
        athlete_id: AthleteArg = None,
        about: AboutArg = None,
        limit: Annotated[int, limit_arg(20, 200)] = 20,
    ) -> TopicList:
        """What the athlete's conversations were about: the words and phrases used, how many
        episodes mention each, first and last mentioned; most mentioned first. With `about`
        (a question), only the topics it touches. Use it for questions spread over many days
        ("what are her hobbies?") before recalling episodes about each topic."""
        with refusals():
            athlete = scope.athlete(athlete_id)
            found = port.topics(athlete, about, limit)
            return TopicList(
                athlete_id=athlete,
                about=about,
                topics=[TopicRow(**t.model_dump()) for t in found],
            )

    @server.tool(
        name="vault_fact_history", title="Show what a fact replaced", annotations=READ_ONLY
    )
    def fact_history(
        fact_id: Annotated[int, Field(ge=1, description="A fact id from vault_search_facts.")],
        athlete_id: AthleteArg = None,
    ) -> FactHistory:
        """How a fact came to be: the facts it replaced (oldest first, with why each left) and
        the id of the fact that holds its place today (None when it was archived)."""
        with refusals():
            athlete = scope.athlete(athlete_id)
            missing = ToolError(f"no fact with id {fact_id} in athlete {athlete!r}'s memory")
            try:
                replaced, active = port.history(fact_id)
            except FactNotFound:
                raise missing from None
            theirs = all(row.athlete_id == athlete for row in replaced) and (
                active is None or active in _fact_ids(port, athlete)
            )
            if not theirs:  # another athlete's fact reads exactly like a missing one
                raise missing
            return FactHistory(
                athlete_id=athlete,
                fact_id=fact_id,
                active_id=active,
                replaced=[ArchivedItem.of(row) for row in replaced],
            )

    @server.tool(
        name="vault_list_athletes", title="List the served athletes", annotations=READ_ONLY
    )
    def list_athletes() -> AthleteList:
        """The athletes this server serves (and no others), with how much is stored for each."""
        with refusals():
            overviews = []
            for athlete in scope.athletes:
                summary = port.summary(athlete)
                overviews.append(
                    AthleteOverview(
                        athlete_id=athlete,
                        facts=0,
                        patterns=0,
                        notes=0,
                        archived=0,
                        last_updated=None,
                    )
                    if summary is None
                    else AthleteOverview(
                        athlete_id=athlete,
                        facts=summary.fact_count,
                        patterns=summary.pattern_count,
                        notes=summary.note_count,
                        archived=summary.archived_count,
                        last_updated=summary.last_updated,
                    )
                )
            return AthleteList(athletes=overviews)


def _fact_ids(port: VaultPort, athlete: str) -> set[int]:
    return {fact.id for fact in port.memory(athlete).facts}

"""The tools that write: remember, learn, record an episode, correct one item, and (separately
allowed) forget and remove one item.

Each is one call of the public facade, so it is one transaction with the facade's validation
and privacy filter (never `trusted`): a refused input writes nothing.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timezone
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp_types import ToolAnnotations
from pydantic import Field

from vault.domain.models import MergeResult
from vault.mcp.port import VaultPort
from vault.mcp.refusals import refusals
from vault.mcp.schemas import (
    ArchivedItem,
    AtArg,
    AthleteArg,
    CorrectionReport,
    EpisodeReport,
    EpisodeTextArg,
    ForgetReport,
    IgnoredItem,
    ItemIdArg,
    ItemKind,
    Kind,
    LearnSource,
    MemoryItem,
    MergeReport,
    MessageArg,
    NewTextArg,
    QueryArg,
    RemovalReport,
    SkippedEpisode,
    TextArg,
)
from vault.mcp.scope import Scope

ADDITIVE = ToolAnnotations(
    read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False
)
DESTRUCTIVE = ToolAnnotations(
    read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False
)
Word = Annotated[str | None, Field(max_length=40)]


def register_write_tools(server: MCPServer, port: VaultPort, scope: Scope) -> None:
    @server.tool(
        name="vault_remember", title="Remember a fact, pattern or note", annotations=ADDITIVE
    )
    def add_memory(
        text: TextArg,
        athlete_id: AthleteArg = None,
        kind: Kind = "fact",
        category: Annotated[
            str | None,
            Field(
                max_length=40,
                description="For a fact: sport, goal, duration, time_preference, "
                "level, injury, preference, context, training_response, insight or general "
                "(derived from the text when left out).",
            ),
        ] = None,
        confidence: Annotated[
            float | None,
            Field(ge=0, le=1, description="0..1 (default 0.8 for a fact, 0.7 otherwise)."),
        ] = None,
        at: AtArg = None,
    ) -> MergeReport:
        """Remember one thing about the athlete: a fact (who they are: "has a recurring knee
        issue"), a pattern (what recurs: "skips Monday sessions") or a note for the coach.

        A fact already known is reinforced rather than duplicated; a fact that contradicts one
        (same conflict key) replaces it and the old one goes to the archive. Contact data,
        card numbers, other people's names and text addressed to a model are refused."""
        with refusals():
            scope.require_writes()
            athlete = scope.athlete(athlete_id)
            candidate: dict[str, Any] = {"kind": kind, "text": text, "observed_at": at}
            if category is not None:
                candidate["category"] = category
            if confidence is not None:
                candidate["confidence"] = confidence
            return _merge_report(athlete, port.merge(athlete, candidate, at))

    @server.tool(
        name="vault_learn", title="Learn from a message or an activity note", annotations=ADDITIVE
    )
    def learn(
        text: MessageArg,
        athlete_id: AthleteArg = None,
        source: LearnSource = "conversation",
        at: AtArg = None,
        activity_id: Annotated[
            str | None,
            Field(
                max_length=200,
                description="For an activity: its id in your app (a repeat "
                "updates it instead of adding it again).",
            ),
        ] = None,
        sport: Annotated[str | None, Field(max_length=60)] = None,
        completed: bool = True,
    ) -> MergeReport:
        """Learn from what the athlete said or did: the vault's extractor finds facts in one
        conversation turn (source=conversation) or in a training session's note
        (source=activity; the session is also recorded as an episode) and merges them.

        Pass only the athlete's own words; the result lists what was added, reinforced,
        replaced and ignored."""
        with refusals():
            scope.require_writes()
            athlete = scope.athlete(athlete_id)
            if source == "conversation":
                return _merge_report(athlete, port.learn_message(athlete, text, at))
            activity: dict[str, Any] = {
                "id": activity_id or _activity_id(text, at),
                "description": text,
                "completed": completed,
                # a session told without a time happened now; its id stays the one of the
                # words alone, so a retried call is the same activity
                "started_at": at or datetime.now(timezone.utc),
                "sport": sport,
            }
            return _merge_report(athlete, port.learn_activity(athlete, activity, at))

    @server.tool(name="vault_record_episode", title="Record an episode", annotations=ADDITIVE)
    def add_episode(
        text: EpisodeTextArg,
        athlete_id: AthleteArg = None,
        type: Annotated[Word, Field(description="e.g. session, injury, race, note.")] = None,
        outcome: Annotated[Word, Field(description="e.g. completed, skipped, pain, pb.")] = None,
        at: AtArg = None,
        ref: Annotated[
            str | None,
            Field(
                max_length=200,
                description="Your app's id for it: recording the same ref again "
                "rewrites the episode.",
            ),
        ] = None,
    ) -> EpisodeReport:
        """Record something that happened to the athlete (an episode), so `vault_recall_episodes`
        can bring it back when it matters: "ran 30 km in the heat, cramped at km 25"."""
        with refusals():
            scope.require_writes()
            athlete = scope.athlete(athlete_id)
            fields = {
                k: v
                for k, v in {"type": type, "outcome": outcome, "at": at, "ref": ref}.items()
                if v is not None
            }
            result = port.add_episode(athlete, text, at, **fields)
            return EpisodeReport(
                athlete_id=athlete,
                added=list(result.added),
                updated=list(result.updated),
                skipped=[SkippedEpisode(index=i, reason=r) for i, r in result.skipped],
            )

    @server.tool(name="vault_correct_item", title="Correct one memory item", annotations=ADDITIVE)
    def correct_memory_item(
        item_id: ItemIdArg, text: NewTextArg, kind: ItemKind = "fact", athlete_id: AthleteArg = None
    ) -> CorrectionReport:
        """Rewrite one fact, pattern or note the athlete says is not quite right ("I run in
        the evening now, not the morning"). The new text is the athlete's own statement; the
        old item is archived as `edited` and kept in its history, and learning does not bring
        the old text back from the messages it came from."""
        with refusals():
            scope.require_writes()
            athlete = scope.athlete(athlete_id)
            edited = port.edit_item(athlete, kind, item_id, text)
            return CorrectionReport(
                athlete_id=athlete,
                item=MemoryItem.of(edited.item),
                replaced=ArchivedItem.of(edited.archived),
            )


def register_forget_tool(server: MCPServer, port: VaultPort, scope: Scope) -> None:
    @server.tool(name="vault_remove_item", title="Remove one memory item", annotations=DESTRUCTIVE)
    def remove_memory_item(
        item_id: ItemIdArg,
        kind: ItemKind = "fact",
        reason: Annotated[
            Literal["wrong", "deleted"],
            Field(
                description="wrong: the athlete says it is not true; deleted: they want it gone."
            ),
        ] = "wrong",
        athlete_id: AthleteArg = None,
    ) -> RemovalReport:
        """Remove one fact, pattern or note by id, for good: no copy of its text is kept, and
        learning does not re-create it from the same messages (a new statement later can).
        Use it when the athlete says an item is wrong or asks for it to be deleted."""
        with refusals():
            scope.require_forget()
            athlete = scope.athlete(athlete_id)
            removed = port.remove_item(athlete, kind, item_id, wrong=reason == "wrong")
            return RemovalReport(
                athlete_id=athlete,
                kind=removed.kind.value,
                id=removed.id,
                reason=reason,
                erased_from_disk=removed.erased_from_disk,
            )

    @server.tool(name="vault_forget", title="Erase matching memories", annotations=DESTRUCTIVE)
    def forget(query: QueryArg, athlete_id: AthleteArg = None) -> ForgetReport:
        """Erase everything about the athlete that matches every word of `query`: facts,
        patterns, notes, archived copies and episodes. No copy is kept and it cannot be undone;
        use it when the athlete asks for something to be forgotten."""
        with refusals():
            scope.require_forget()
            athlete = scope.athlete(athlete_id)
            result = port.forget(athlete, query)
            return ForgetReport(athlete_id=athlete, **result.model_dump())


def _merge_report(athlete: str, result: MergeResult) -> MergeReport:
    return MergeReport(
        athlete_id=athlete,
        added=[MemoryItem.of(item) for item in result.added],
        updated=[MemoryItem.of(item) for item in result.updated],
        archived=[ArchivedItem.of(row) for row in result.archived],
        ignored=[IgnoredItem(text=i.text, reason=i.reason) for i in result.ignored],
    )


def _activity_id(text: str, at: Any) -> str:
    """A stable id for an activity the caller gave none: the same note at the same time is
    the same activity (a retried call does not record it twice)."""
    digest = hashlib.sha256(f"{at}\n{text}".encode()).hexdigest()[:16]
    return f"mcp-{digest}"

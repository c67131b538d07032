"""Episodes from activities: the race, the injury, the session and how it went."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from vault.domain.episodes import EpisodeIn, StorePolicy
from vault.domain.models import validated
from vault.extraction import ActivityIn

_INJURY = re.compile(
    r"\b(injur\w*|pain\w*|sore|hurt\w*|strain\w*|tweak\w*|pulled|twinge|sprain\w*|niggle)\b", re.I
)
_RACE = re.compile(r"\b(race|marathon|half|10k|5k|parkrun|ultra|triathlon|competition)\b", re.I)


def episodes_from_activity(
    activity: ActivityIn | Mapping[str, Any], *, policy: StorePolicy | None = None
) -> list[EpisodeIn]:
    """The episode an activity is worth (at most one: a session that hurt is one event, and two
    rows of it would both reach PAST EXPERIENCE and crowd the prompt).

    Type `injury` when a note mentions pain or an injury (the most notable thing about it;
    meta `kind` still says `race` or `session`), else `race` when the name says so, else
    `session`; outcome `completed`, `missed`, or `hard` for RPE 8+. `ref` is `activity:<id>`,
    so re-ingesting the same activity rewrites its episode. With a `policy` (default the
    episodic-memory design's triggers plus the coach's types), an episode it would not keep is
    left out.
    """
    checked = validated(ActivityIn, activity)
    when = checked.observed_at
    name = checked.name or (checked.sport or "session")
    notes = " ".join(p for p in (checked.description, checked.private_note) if p)
    outcome = (
        "missed" if not checked.completed else ("hard" if (checked.rpe or 0) >= 8 else "completed")
    )
    meta: dict[str, Any] = {"day": checked.local_date.isoformat(), "outcome": outcome}
    if checked.sport:
        meta["sport"] = checked.sport
    if checked.rpe is not None:
        meta["rpe"] = checked.rpe
    if checked.duration_min is not None:
        meta["minutes"] = checked.duration_min
    kind = "race" if _RACE.search(name) else "session"
    meta["kind"] = kind
    summary = f"{name}: {notes}" if notes else name
    if not checked.completed:
        summary = f"missed {summary}"
    hurt = _INJURY.search(notes) is not None
    found = [
        EpisodeIn(
            text=summary[:2000],
            type="injury" if hurt else kind,
            outcome=outcome,
            at=when,
            ref=f"activity:{checked.id}",
            meta=meta,
        )
    ]
    chosen = policy or StorePolicy(extra=frozenset({"session"}))
    return [e for e in found if chosen.decide(e) is not None]

"""Which athletes a server may touch, and which kinds of write it may make."""

from __future__ import annotations

from dataclasses import dataclass

from vault.domain.models import validated_athlete


class OutOfScope(Exception):
    """A request for an athlete, or a kind of write, this server was not started for."""


@dataclass(frozen=True)
class Scope:
    """The athletes a server is bound to (never empty) and what it may change.

    With one athlete the id may be left out of every call; with several it must be named.
    An athlete outside the list is refused with the same words whether or not it exists, so
    a client learns nothing about other athletes.
    """

    athletes: tuple[str, ...]
    allow_writes: bool = False
    allow_forget: bool = False

    def __post_init__(self) -> None:
        if not self.athletes:
            raise ValueError("a server must be bound to at least one athlete")
        cleaned = tuple(dict.fromkeys(validated_athlete(a) for a in self.athletes))
        object.__setattr__(self, "athletes", cleaned)
        if self.allow_forget and not self.allow_writes:
            raise ValueError("forgetting is a write: allow writes too")

    def athlete(self, requested: str | None) -> str:
        """The athlete a call is about: `requested`, or the only one when it is left out."""
        if requested is None or not requested.strip():
            if len(self.athletes) == 1:
                return self.athletes[0]
            raise OutOfScope(
                "name the athlete (athlete_id): this server serves " + ", ".join(self.athletes)
            )
        chosen = validated_athlete(requested)
        if chosen not in self.athletes:
            raise OutOfScope(
                f"athlete {chosen!r} is not served here; this server serves "
                + ", ".join(self.athletes)
            )
        return chosen

    def require_writes(self) -> None:
        if not self.allow_writes:
            raise OutOfScope("writes are off: the server was started without --allow-writes")

    def require_forget(self) -> None:
        if not self.allow_forget:
            raise OutOfScope("forgetting is off: the server was started without --allow-forget")

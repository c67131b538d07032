"""The one vocabulary of body parts.

Each part has its tag word (`body:<name>`, what the M13 spec's entity list names), the label a
fact writes ("has IT band issue"), the surface forms athletes write (a regex over normalised
lower-case text, used by the extractor) and, for recall, the region a query about it widens to
("knee" also finds "leg"). Ordered: longer, more specific forms first.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BodyPart:
    name: str
    forms: str
    label: str = ""
    region: str | None = None

    def __post_init__(self) -> None:
        if not self.label:
            object.__setattr__(self, "label", self.name)


PARTS: tuple[BodyPart, ...] = (
    BodyPart("it band", r"it ?band|itb|iliotibial(?: band)?", label="IT band"),
    BodyPart("plantar", r"plantar(?: fasciitis| fascia)?", label="plantar fascia"),
    BodyPart("achilles", r"achilles(?: tendon)?"),
    BodyPart("knee", r"knees?|kneecaps?|patella|acl|meniscus", region="leg"),
    BodyPart("ankle", r"ankles?", region="foot"),
    BodyPart("calf", r"calf|calves|calfs", region="leg"),
    BodyPart("shin", r"shins?", region="leg"),
    BodyPart("hip", r"hip(?: flexor)?s?(?![- ]hop)"),  # "hip hop" is music
    BodyPart("hamstring", r"hamstrings?|hammys?|hammies", region="leg"),
    BodyPart("quad", r"quads?|quadriceps", region="leg"),
    BodyPart("foot", r"(?<!on )(?:foot|feet)"),
    BodyPart("heel", r"heels?", region="foot"),
    BodyPart(
        "back",
        r"(?:(?<=my )|(?<=lower )|(?<=upper )|(?<=bad )|(?<=sore )|(?<=the ))back(?:'s)?"
        r"|back(?= (?:pain|ache|aches|issue|issues|problem|problems|injury|spasms?|is|has|was"
        r"|tightness|tight|always|feels|felt|hurts|playing|went|keeps)\b)",
    ),
    BodyPart("shoulder", r"shoulders?|rotator cuff"),
    BodyPart("glute", r"glutes?|gluteal"),
    BodyPart("leg", r"leg"),
    BodyPart("neck", r"necks?"),
    BodyPart("wrist", r"wrists?"),
    BodyPart("elbow", r"elbows?"),
    BodyPart("toe", r"(?:big |little )?toes?"),
    BodyPart("groin", r"groin"),
    BodyPart("arm", r"arms?"),
)

NAMES: tuple[str, ...] = tuple(part.name for part in PARTS)
"""Every part's tag word."""

REGION_PAIRS: tuple[tuple[str, str], ...] = tuple(
    (part.name, part.region) for part in PARTS if part.region
)
"""(part, region) pairs recall treats as related words."""

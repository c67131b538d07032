"""Pydantic models at the boundary: what callers give the vault and what it gives back."""

from __future__ import annotations

import math
import unicodedata
from datetime import datetime
from typing import Annotated, Any, NamedTuple, TypeVar, Union, cast

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    computed_field,
    field_validator,
    model_validator,
)
from pydantic_core import InitErrorDetails
from typing_extensions import Self

from vault.domain.errors import InvalidInput
from vault.domain.limits import (
    ATHLETE_ID_MAX,
    CONFLICT_KEY_MAX,
    EVIDENCE_MAX,
    EXTRACTOR_MAX,
    FACT_TEXT_MAX,
    ITEM_TEXT_MAX,
    SOURCE_REF_MAX,
    TAG_MAX,
    TAGS_MAX,
    TEXT_INPUT_MAX,
)
from vault.domain.text import (
    canonical_text,
    category_of,
    clean_text,
    conflict_key_of,
    entity_tags,
    normalize_text,
)
from vault.domain.times import in_range
from vault.domain.vocabulary import (
    ArchiveReason,
    Category,
    Kind,
    Level,
    Source,
    level_of,
    parse_category,
)


def _athlete_id(value: str) -> str:
    # NFC: "José" typed as one code point or as "e" + U+0301 is one athlete (revision 0008
    # brought the ids already stored to this form)
    cleaned = unicodedata.normalize("NFC", value.strip(" "))  # only spaces: "ana\u2028" is refused
    if not cleaned:
        raise ValueError("athlete id must not be empty")
    if len(cleaned) > ATHLETE_ID_MAX:
        raise ValueError(f"athlete id is longer than {ATHLETE_ID_MAX} characters")
    # str.isprintable refuses control and format characters (zero-width space, BOM, bidi
    # marks), line and paragraph separators (U+2028), white space other than ' ', lone
    # surrogates, private-use and unassigned code points: an id is something one can see
    if not cleaned.isprintable():
        raise ValueError(
            "athlete id must hold only visible characters and spaces (no control, zero-width, "
            "line-separator or surrogate characters)"
        )
    return cleaned


def _encodable(value: str, what: str = "text") -> str:
    """Refuse lone surrogates: they cannot be stored as UTF-8 (nor sent anywhere)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError(f"{what} holds a lone surrogate, which is not valid unicode") from None
    return value


def _checked_tags(tags: frozenset[str] | None) -> frozenset[str] | None:
    """`kind:entity` tags, trimmed and lower-cased (tags compare without case)."""
    if tags is None:
        return None
    if len(tags) > TAGS_MAX:
        raise ValueError(f"{len(tags)} tags; at most {TAGS_MAX}")
    cleaned: set[str] = set()
    for tag in tags:
        _encodable(tag, "a tag")
        folded = clean_text(tag).lower()
        prefix, _, entity = folded.partition(":")
        if not prefix.strip() or not entity.strip() or len(folded) > TAG_MAX:
            raise ValueError(f"tag {tag!r} must look like 'kind:entity' (e.g. 'body:knee')")
        cleaned.add(folded)
    return frozenset(cleaned)


def _memory_text(limit: int) -> AfterValidator:
    def check(value: str) -> str:
        if len(value) > TEXT_INPUT_MAX:  # refuse before any work on a pasted megabyte
            raise ValueError(f"text is {len(value)} characters; the limit is {limit}")
        cleaned = clean_text(_encodable(value))
        if not cleaned:
            raise ValueError("text must not be empty")
        if not normalize_text(cleaned):
            raise ValueError("text must contain at least one letter or digit")
        stored = canonical_text(cleaned)
        if len(stored) > limit:
            raise ValueError(f"text is {len(stored)} characters; the limit is {limit}")
        return stored

    return AfterValidator(check)


def _strict_number(value: Any) -> Any:
    """A confidence is a number: True is not 1.0, and "0.8" is not a number either."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"confidence must be a number from 0 to 1, got {value!r}")
    return value


def _confidence(value: float) -> float:
    if not math.isfinite(value) or not 0.0 <= value <= 1.0:
        raise ValueError(f"confidence must be a number from 0 to 1, got {value}")
    return float(value)


def _aware(value: datetime) -> datetime:
    return aware_in_range(value, "observed_at")


def aware_in_range(value: datetime, name: str = "time") -> datetime:
    """`value` in UTC, or ValueError when naive or outside 1900-2500 (`vault.domain.times.in_range`)."""
    return in_range(value, name)


def _optional_text(value: Any) -> Any:
    return _encodable(value, "a field") if isinstance(value, str) else value


def _category(value: Any) -> Any:
    return parse_category(value) if isinstance(value, str) else value


AthleteId = Annotated[str, AfterValidator(_athlete_id)]
Confidence = Annotated[float, BeforeValidator(_strict_number), AfterValidator(_confidence)]
AwareTime = Annotated[datetime, AfterValidator(_aware)]
FactText = Annotated[str, _memory_text(FACT_TEXT_MAX)]
ItemText = Annotated[str, _memory_text(ITEM_TEXT_MAX)]
CategoryField = Annotated[Category, BeforeValidator(_category)]
OptionalRef = Annotated[
    Union[Annotated[str, Field(max_length=SOURCE_REF_MAX)], None], BeforeValidator(_optional_text)
]
OptionalExtractor = Annotated[
    Union[Annotated[str, Field(max_length=EXTRACTOR_MAX)], None], BeforeValidator(_optional_text)
]
OptionalEvidence = Annotated[
    Union[Annotated[str, Field(max_length=EVIDENCE_MAX)], None], BeforeValidator(_optional_text)
]
OptionalKey = Annotated[
    Union[Annotated[str, Field(max_length=CONFLICT_KEY_MAX)], None], BeforeValidator(_optional_text)
]


class InputValidationError(InvalidInput, ValidationError):
    """Building an input model with bad data: a `vault.InvalidInput` and still pydantic's
    `ValidationError` (same `.errors()`), so code written for either catches it. Its message
    is one line per problem (`field: message`)."""

    def __str__(self) -> str:
        return describe_validation_error(self)


def _raise_invalid(error: ValidationError) -> Any:
    raise InputValidationError.from_exception_data(
        error.title, cast(list[InitErrorDetails], error.errors())
    ) from None


class _Input(BaseModel):
    """Input models raise `InvalidInput` (see InputValidationError) when built with bad data,
    whether through the constructor or `model_validate`."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True, defer_build=True)

    def __init__(self, **data: Any) -> None:
        try:
            super().__init__(**data)
        except InputValidationError:
            raise
        except ValidationError as error:
            _raise_invalid(error)

    @classmethod
    def model_validate(cls, obj: Any, *args: Any, **kwargs: Any) -> Self:
        try:
            return super().model_validate(obj, *args, **kwargs)
        except InputValidationError:
            raise
        except ValidationError as error:
            return cast(Self, _raise_invalid(error))


class FactIn(_Input):
    """A key fact to merge. Category, conflict key and tags are derived from the text when absent."""

    text: FactText
    category: Union[CategoryField, None] = None
    conflict_key: OptionalKey = None
    source: Source = Source.MANUAL
    source_ref: OptionalRef = None
    extractor: OptionalExtractor = None
    confidence: Confidence = 0.8
    observed_at: Union[AwareTime, None] = None
    tags: Union[frozenset[str], None] = None
    # The words the fact was read from; stored as its evidence beside source and source_ref.
    evidence: OptionalEvidence = None

    @field_validator("tags")
    @classmethod
    def _tags_are_prefixed(cls, tags: frozenset[str] | None) -> frozenset[str] | None:
        return _checked_tags(tags)

    @model_validator(mode="after")
    def _derive(self) -> FactIn:
        if self.conflict_key is None:
            self.conflict_key = conflict_key_of(self.text)
        elif not self.conflict_key.strip():
            self.conflict_key = None
        else:
            self.conflict_key = clean_text(self.conflict_key).lower()
        if self.category is None:
            self.category = category_of(self.text)
        if self.tags is None:
            self.tags = entity_tags(self.text, self.category)
        return self


class _ListItemIn(_Input):
    text: ItemText
    source_ref: OptionalRef = None
    extractor: OptionalExtractor = None
    confidence: Confidence = 0.7
    observed_at: Union[AwareTime, None] = None


class PatternIn(_ListItemIn):
    """A recurring pattern to merge ("skips Mondays frequently")."""

    source: Source = Source.PATTERN_ANALYSIS


class NoteIn(_ListItemIn):
    """A coaching note to merge ("responds well to encouragement after hard sessions")."""

    source: Source = Source.MANUAL


class Retraction(_Input):
    """The athlete said a fact no longer holds ("my knee is fine now"): archive it as resolved.

    Matches active facts by conflict key, or by category plus an overlapping entity tag; keys
    and tags compare without case, as facts store them (`Body:Knee` matches `body:knee`).
    """

    conflict_key: OptionalKey = None
    category: Union[CategoryField, None] = None
    tags: frozenset[str] = frozenset()
    observed_at: Union[AwareTime, None] = None
    extractor: OptionalExtractor = None

    @field_validator("tags")
    @classmethod
    def _tags_fold_case(cls, tags: frozenset[str]) -> frozenset[str]:
        return _checked_tags(tags) or frozenset()

    @model_validator(mode="after")
    def _has_target(self) -> Retraction:
        if self.conflict_key is not None:
            self.conflict_key = clean_text(self.conflict_key).lower() or None
        if not self.conflict_key and not (self.category and self.tags):
            raise ValueError("a retraction needs a conflict_key, or a category with tags")
        return self


Candidate = Union[FactIn, PatternIn, NoteIn, Retraction]

_Model = TypeVar("_Model", bound=BaseModel)


def validated(model: type[_Model], data: Any) -> _Model:
    """Build `model` from `data` (or accept an instance), raising InvalidInput on bad input."""
    if isinstance(data, model):
        return data
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise InvalidInput(describe_validation_error(exc)) from None


def validated_athlete(athlete_id: Any) -> str:
    """A trimmed, checked athlete id, or InvalidInput."""
    if not isinstance(athlete_id, str):
        raise InvalidInput("athlete id must be a string")
    try:
        return _athlete_id(athlete_id)
    except ValueError as exc:
        raise InvalidInput(str(exc)) from None


def describe_validation_error(exc: ValidationError) -> str:
    """One readable line per problem: `field: message`."""
    parts = []
    for error in exc.errors():
        where = ".".join(str(p) for p in error["loc"]) or "input"
        message = str(error["msg"]).removeprefix("Value error, ")
        parts.append(f"{where}: {message}")
    return "; ".join(parts)


# ---- results ----------------------------------------------------------------------------------


class _Output(BaseModel):
    model_config = ConfigDict(frozen=True, from_attributes=True, defer_build=True)


class Fact(_Output):
    """An active key fact as stored."""

    id: int
    athlete_id: str
    text: str
    category: Category
    conflict_key: Union[str, None]
    source: Source
    source_ref: Union[str, None]
    extractor: Union[str, None]
    confidence: float
    occurrences: int
    tags: tuple[str, ...]
    learned_at: datetime
    observed_at: datetime
    last_reinforced_at: datetime
    updated_at: datetime
    kind: Kind = Kind.FACT

    @computed_field  # type: ignore[prop-decorator]
    @property
    def level(self) -> Level:
        return level_of(self.confidence)


class Evidence(_Output):
    """One observation a fact rests on: where, when, and the words."""

    id: int
    fact_id: int
    source: Source
    source_ref: Union[str, None]
    extractor: Union[str, None]
    words: Union[str, None]
    observed_at: datetime
    recorded_at: datetime


class ListItem(_Output):
    """An active pattern or coaching note as stored."""

    id: int
    athlete_id: str
    kind: Kind
    text: str
    source: Source
    source_ref: Union[str, None]
    extractor: Union[str, None]
    confidence: float
    occurrences: int
    learned_at: datetime
    last_reinforced_at: datetime
    updated_at: datetime

    @computed_field  # type: ignore[prop-decorator]
    @property
    def level(self) -> Level:
        return level_of(self.confidence)


class Archived(_Output):
    """An item that left the active set, and why."""

    id: int
    athlete_id: str
    kind: Kind
    original_id: Union[int, None]
    original_text: str
    category: Union[Category, None]
    conflict_key: Union[str, None]
    source: Source
    confidence: float
    occurrences: int
    learned_at: datetime
    superseded_by: Union[int, None]
    reason: ArchiveReason
    archived_at: datetime


class Ignored(_Output):
    """A candidate that changed nothing, and why."""

    text: str
    reason: str


class MergeResult(_Output):
    """What one merge added, updated, archived and ignored (the M13 spec's ExtractionResult)."""

    added: tuple[Union[Fact, ListItem], ...] = ()
    updated: tuple[Union[Fact, ListItem], ...] = ()
    archived: tuple[Archived, ...] = ()
    ignored: tuple[Ignored, ...] = ()


class DecayResult(_Output):
    """How many facts a whole-vault decay lowered, and how many fell below 0.3 and were archived.

    Counts only: a run over the whole vault may touch millions of rows (see `Vault.archive` for
    what was archived, reason `decayed`)."""

    lowered: int
    archived: int


class ForgetResult(_Output):
    """Counts of what a forget request erased (the text itself is never kept).

    `erased_from_disk` is False when the rows are gone from the database but older copies of
    their pages may still sit in the write-ahead log, because a reader held an old snapshot
    past the wait: `Vault.erase(wait=...)` (`vault erase --wait`) finishes the job."""

    facts: int
    patterns: int
    notes: int
    archived: int
    episodes: int = 0  # episodes and archived episodes (the episodic-memory design) that matched
    erased_from_disk: bool = True


class AthleteMemory(_Output):
    """Everything active for one athlete."""

    athlete_id: str
    facts: tuple[Fact, ...]
    patterns: tuple[ListItem, ...]
    notes: tuple[ListItem, ...]
    updated_at: Union[datetime, None]


class PromptRow(NamedTuple):
    """One active item as the prompt renderers need it, read without building a model per row."""

    kind: Kind
    id: int
    text: str
    confidence: float


class AthleteSummary(_Output):
    """A row of the `athlete_summary` view."""

    athlete_id: str
    fact_count: int
    prompt_fact_count: int
    pattern_count: int
    note_count: int
    archived_count: int
    created_at: datetime
    last_updated: datetime

"""What every rendering shares: the priority order of items and how their text is made inline-safe.

Priority (used by every format, and mirrored by the `top_facts` / `active_*` views):
confidence descending, then most recently reinforced (`last_reinforced_at` descending), then the
oldest id. Times are compared as exact UTC microseconds, so ties never depend on float rounding or
the machine's time zone (a naive time is read as UTC).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from datetime import datetime, timedelta, timezone
from typing import TypeAlias, TypeVar

from vault.domain.models import Fact, ListItem

Item: TypeAlias = Fact | ListItem
_I = TypeVar("_I", Fact, ListItem, Item)


_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_MICROSECOND = timedelta(microseconds=1)
# Any run of white space (Unicode's too: NEL, LINE/PARAGRAPH SEPARATOR, ...) or C0/C1 control
# characters folds to one space, so an item can never start a new line.
_BREAKS = re.compile(r"[\s\x00-\x1f\x7f-\x9f]+")
# "|" separates items on a line; the ASCII bar and its full-width twin become "/".
_BARS = str.maketrans({"|": "/", "\uff5c": "/"})
_SURROGATES = re.compile(r"[\ud800-\udfff]")


def inline(text: str) -> str:
    """`text` made safe for one slot of a `" | "`-separated line.

    Pipes become "/", every run of white space or control characters becomes one space, lone
    surrogates (which no tokenizer can encode) become U+FFFD, and the ends are trimmed. The
    result cannot add an item or a line; it may be empty.
    """
    if _already_inline(text):
        return text
    text = _SURROGATES.sub("\ufffd", text.translate(_BARS))
    return _BREAKS.sub(" ", text).strip()


def _already_inline(text: str) -> bool:
    """True when `inline` would return `text` unchanged: the common case of stored text, whose
    white space input validation already folded. `isprintable()` is False for every line break,
    tab, control character and lone surrogate, so only bars and doubled/outer spaces remain."""
    return (
        text.isprintable()
        and "|" not in text
        and "\uff5c" not in text
        and "  " not in text
        and text == text.strip()
    )


def confidence_of(item: Item) -> float:
    """The item's confidence, with a non-finite value ranked below every real one."""
    value = item.confidence
    return value if math.isfinite(value) else -1.0


def _micros(value: datetime) -> int:
    if value.tzinfo is None or value.utcoffset() is None:
        value = value.replace(tzinfo=timezone.utc)
    return (value - _EPOCH) // _MICROSECOND


def priority_key(item: Item) -> tuple[float, int, int]:
    """Sort key putting the highest-priority item first."""
    return (-confidence_of(item), -_micros(item.last_reinforced_at), item.id)


def ranked(items: Iterable[_I]) -> list[_I]:
    """`items` in priority order, highest first."""
    return sorted(items, key=priority_key)


def utc_text(value: datetime) -> str:
    """RFC 3339 with a `Z`: seconds, plus microseconds when there are any (chrono reads both)."""
    if value.tzinfo is None or value.utcoffset() is None:
        value = value.replace(tzinfo=timezone.utc)
    return value.astimezone(timezone.utc).isoformat().replace("+00:00", "Z")

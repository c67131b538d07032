"""What an erasure record keeps about a removed item: keyed hashes, never the text. Pure.

An item is recognised by its athlete and its normalised text (`erasure_text`: Unicode NFC,
then the dedup key `normalize_text`: lower case, punctuation dropped, white space folded), so
"Has a sore knee." erased is "has a sore knee" and "has a sore knee" as the engine's row
shows it. Both are hashed with HMAC-SHA256 under the vault's own secret: the record can tell
"this text was erased for this athlete, at that time" to the code holding the file, and
nothing to a reader of the table alone (no dictionary attack across vaults, no plain id).
The item's hash is bound to its athlete, so two athletes' erased items cannot be linked.
"""

from __future__ import annotations

import hashlib
import hmac
import unicodedata
from enum import Enum

from vault.domain.text import normalize_text


class ErasureReason(str, Enum):
    """Why something was removed (the `reason` column)."""

    FORGET = "forget"  # `forget WORDS`: every item matching the words
    DELETE = "delete"  # `delete ATHLETE`: the whole athlete
    DELETED = "deleted"  # one item deleted by the athlete (memory page, MCP)
    WRONG = "wrong"  # "this is wrong" on an item
    EDITED = "edited"  # an item's old text, replaced by an edit
    CORRECTED = "corrected"  # an item's old text, replaced by a correction in conversation
    CONSOLIDATION = "consolidation"  # merged away by consolidation


def erasure_text(text: str) -> str:
    """The form of an item's text the record hashes ('' for a text with no words)."""
    return normalize_text(unicodedata.normalize("NFC", text))


def athlete_digest(secret: bytes, athlete_id: str) -> str:
    """The athlete as the record names them: a keyed hash of the (validated, NFC) id."""
    return hmac.new(secret, b"athlete\x00" + athlete_id.encode("utf-8"), hashlib.sha256).hexdigest()


def item_digest(secret: bytes, athlete_id: str, text: str) -> str:
    """One item of one athlete: a keyed hash of the athlete id and the item's normalised text."""
    message = (
        b"item\x00" + athlete_id.encode("utf-8") + b"\x00" + erasure_text(text).encode("utf-8")
    )
    return hmac.new(secret, message, hashlib.sha256).hexdigest()

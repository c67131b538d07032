"""What a correction of one memory item returns: the athlete edited it, or removed it."""

from __future__ import annotations

from typing import Union

from pydantic import BaseModel, ConfigDict

from vault.domain.models import Archived, Fact, ListItem
from vault.domain.vocabulary import Kind


class Edited(BaseModel):
    """An item rewritten by the athlete: the new item, and the old one's archive row (reason
    `edited`, `superseded_by` the new item's id)."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    item: Union[Fact, ListItem]
    archived: Archived


class Removed(BaseModel):
    """An item removed by the athlete ("this is wrong", or delete). Its text is not kept: the
    erasure record holds a keyed hash of it, so learning does not bring it back from the same
    evidence. `erased_from_disk` as in ForgetResult."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    kind: Kind
    id: int
    reason: str
    erased_from_disk: bool = True

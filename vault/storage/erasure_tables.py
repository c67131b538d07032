"""The erasure record and the vault's secret, on the tables' metadata (revision 0010).

`erasures` outlives the athlete it names: no foreign key to `athletes`, the athlete by keyed
hash only (`vault.domain.erasure`). On SQLite `id` is the rowid with a UNIQUE
(athlete_key, id); on PostgreSQL the revision makes `id` a 64-bit identity and the primary key
(athlete_key, id), the tenant rule of the schema (the models here are SQLite's shape).
`vault_secrets` holds the per-vault random secret of the hashes.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, Index, Integer, String, Table, UniqueConstraint

from vault.storage.tables import metadata
from vault.storage.types import UTCDateTime

DIGEST_LENGTH = 64  # hex SHA-256

erasures_table = Table(
    "erasures",
    metadata,
    Column("id", BigInteger().with_variant(Integer(), "sqlite"), primary_key=True),
    Column("athlete_key", String(DIGEST_LENGTH), nullable=False),
    # NULL: the whole athlete (reason 'delete'); otherwise one item's text
    Column("item_key", String(DIGEST_LENGTH), nullable=True),
    Column("reason", String(32), nullable=False),
    Column("erased_at", UTCDateTime, nullable=False),
    UniqueConstraint("athlete_key", "id"),
    Index(None, "athlete_key", "item_key", "erased_at"),  # was this item erased, and when
    sqlite_autoincrement=True,
)

vault_secrets_table = Table(
    "vault_secrets",
    metadata,
    Column("name", String(40), primary_key=True),
    Column("secret", String(128), nullable=False),
)

"""Taking memory in and out of a vault: the M13 spec's memories.yaml, and vault's own export format.

Each function runs inside a unit of work the caller owns (and commits), so a library user can
compose an import with other steps in one transaction:

    from vault.services.interchange import export_athlete, restore, import_memories_yaml, read_source
    with vault.unit_of_work() as uow:
        document = export_athlete(uow, "ana")              # a `vault-export` v1 dict
    with other_vault.unit_of_work() as uow:
        report = restore(uow, document)                    # "ana" exactly, ids renumbered
        uow.commit()

`Vault.export`, `Vault.import_document` and `Vault.import_memories_yaml` do exactly that, one
transaction each. Every import validates everything before it writes anything. All reads and
writes go through `uow.snapshots` (vault.storage.repositories.snapshot). The legacy
`athlete_memory` table is adopted through the engine's inbox (see vault.services.engine_sync).
"""

from vault.domain.document import FORMAT, VERSION, ExportDocument
from vault.services.interchange.export import (
    FORMATS,
    export_athlete,
    load_text,
    parse_text,
    read_document,
    render,
)
from vault.services.interchange.memories_yaml import import_memories_yaml, read_source
from vault.services.interchange.restore import ImportReport, import_document, restore
from vault.services.interchange.validate import MAX_ID, check_privacy, validate_document
from vault.storage.repositories.legacy_copy import purge_legacy_copy

parse_document = validate_document  # the strict parse: the version must be the integer 1

__all__ = [
    "FORMAT",
    "FORMATS",
    "MAX_ID",
    "VERSION",
    "ExportDocument",
    "ImportReport",
    "export_athlete",
    "import_document",
    "import_memories_yaml",
    "load_text",
    "parse_document",
    "parse_text",
    "purge_legacy_copy",
    "read_document",
    "read_source",
    "render",
    "restore",
    "validate_document",
    "check_privacy",
]

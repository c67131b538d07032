"""Taking memory in and out of a vault: seed 002's memories.yaml, and vault's own export format.

    from vault.services.interchange import export_athlete, import_document, import_memories_yaml
    document = export_athlete(vault, "ana")            # a `vault-export` v1 dict
    import_document(other_vault, document)              # restores "ana" exactly
    import_memories_yaml(vault, Path("athlete/memories.yaml"), "ana")  # a str is YAML text

Each import is one transaction that validates everything before it writes anything.
The legacy `athlete_memory` table is adopted by Alembic revision 0002 (see vault.domain.legacy).
"""

from vault.domain.document import FORMAT, VERSION, ExportDocument, parse_document
from vault.services.interchange.export import FORMATS, export_athlete, load_text, parse_text, render
from vault.services.interchange.memories_yaml import import_memories_yaml
from vault.services.interchange.restore import ImportReport, import_document
from vault.storage.repositories.legacy_copy import purge_legacy_copy

__all__ = [
    "FORMAT",
    "FORMATS",
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
    "render",
]

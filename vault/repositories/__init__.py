"""Repositories: they read and write through the unit of work's session and never commit."""

from vault.repositories.archive import ArchiveRepository
from vault.repositories.athletes import AthleteRepository
from vault.repositories.memory import MemoryRepository

__all__ = ["AthleteRepository", "ArchiveRepository", "MemoryRepository"]

"""Engines, tables, views, the unit of work, repositories and migrations. Imports `vault.domain` only."""

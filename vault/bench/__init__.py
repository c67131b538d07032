"""Benchmarks: `python -m vault.bench` (see BENCHMARKS.md)."""

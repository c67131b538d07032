"""The vocabulary, limits, text, time, input/output models and pure rules. Imports nothing else of vault."""

"""One vocabulary per kind, shared by extraction, consolidation and recall (issue 26/28):
`body` (body parts: the surface forms athletes write, the tag word, the region recall widens
to), `sports` (activity types of a training log, the endurance sports), `jobs` (job titles).
A word added here is known everywhere at once."""

"""Check a PostgreSQL vault database against Citus's distribution rules (vault.storage.citus_rules).

    python tools/citus_rule_check.py postgresql://postgres@127.0.0.1:5432/vault

Prints one line per table and view (pass, or what breaks a rule) and a summary line; exits 1
when anything fails. Run it on what `vault upgrade` (or `vault upgrade --partitions N`) made.
"""

from __future__ import annotations

import sys

from vault.storage.citus_rules import check, summary
from vault.storage.engine import create_vault_engine


def main(url: str) -> int:
    engine = create_vault_engine(url)
    try:
        with engine.connect() as connection:
            verdicts = check(connection)
    finally:
        engine.dispose()
    for v in verdicts:
        tenant = f" by {v.tenant}" if v.tenant else ""
        state = "pass" if v.passes else "FAIL: " + "; ".join(v.problems)
        print(f"{v.kind:11} {v.name + tenant:36} {state}")
    print(summary(verdicts))
    return 0 if all(v.passes for v in verdicts) else 1


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))

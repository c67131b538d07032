"""`python -m vault ...`: the same command line as `vault ...`."""

from vault.cli import main

if __name__ == "__main__":  # pragma: no branch
    main(prog_name="vault")

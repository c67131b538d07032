"""pytest-alembic's built-in checks, run against a real SQLite file."""

from pytest_alembic.tests import (  # noqa: F401 - collected by pytest
    test_model_definitions_match_ddl,
    test_single_head_revision,
    test_up_down_consistency,
    test_upgrade,
)

"""The money tests share the workflow tests' app fixture."""

from tests.workflows.conftest import research_app  # noqa: F401

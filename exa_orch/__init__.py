"""exa-orch: an MCP server for long-horizon web research on Exa Websets, with durable tasks."""

__version__ = "0.2.0"

__all__ = ["__version__"]

"""`python -m exa_orch` is the `exa-orch` command."""

from exa_orch.cli import main

if __name__ == "__main__":
    raise SystemExit(main())

"""exa-py's client for the contract tests, imported when a test first builds one.

Importing exa-py costs ~0.7 CPU-s (it loads openai's types), and every xdist worker imports every
test module while collecting, whether or not it runs the file; so the test modules name `AsyncExa`
for annotations only, and build it here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from exa_py import AsyncExa


def async_exa(api_key: str, api_base: str) -> AsyncExa:
    """A new exa-py AsyncExa talking to `api_base` (the simulator)."""
    from exa_py import AsyncExa

    return AsyncExa(api_key=api_key, api_base=api_base)

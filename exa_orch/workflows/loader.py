"""Extra workflows from the environment: EXA_ORCH_EXTRA_WORKFLOWS="module:attr[,module:attr]".

Each attr is a list (or tuple) of WorkflowSpec. Tests use it to register their workflows in a
server they spawn; a deployment may use it to add its own task types without editing exa-orch.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping

from exa_orch.errors import ConfigError
from exa_orch.runtime.spec import WorkflowSpec

ENV_VAR = "EXA_ORCH_EXTRA_WORKFLOWS"
HINT = f"Set {ENV_VAR} to importable 'package.module:LIST' entries, comma-separated, or unset it."


def load_extra_workflows(env: Mapping[str, str]) -> list[WorkflowSpec]:
    """The specs `env`'s EXA_ORCH_EXTRA_WORKFLOWS names (empty when unset); ConfigError naming a bad
    entry. The face passes its environment (the CLI: os.environ); nothing below it reads one."""
    raw = env.get(ENV_VAR, "").strip()
    specs: list[WorkflowSpec] = []
    for entry in filter(None, (part.strip() for part in raw.split(","))):
        module_name, sep, attr = entry.partition(":")
        if not sep or not module_name or not attr:
            raise ConfigError(
                f"{ENV_VAR} entry {entry!r} must look like 'package.module:ATTRIBUTE'", hint=HINT
            )
        try:
            value = getattr(importlib.import_module(module_name), attr)
        except Exception as exc:  # importing runs the module's code: any error is a bad setting
            raise ConfigError(
                f"{ENV_VAR} entry {entry!r} can't be loaded: {type(exc).__name__}: {exc}", hint=HINT
            ) from None
        if not isinstance(value, list | tuple) or not all(isinstance(s, WorkflowSpec) for s in value):
            raise ConfigError(f"{ENV_VAR} entry {entry!r} must name a list of WorkflowSpec", hint=HINT)
        specs.extend(value)
    return specs

"""WorkflowSpec/WorkflowRegistry, the EXA_ORCH_EXTRA_WORKFLOWS loader, and the public API lists."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

import exa_orch.runtime
import exa_orch.workflows
from exa_orch.errors import ConfigError, ErrorCode, InvalidParams
from exa_orch.workflows import WorkflowRegistry, WorkflowSpec, default_workflows, load_extra_workflows
from tests.runtime.workflows import WORKFLOWS


async def _noop(ctx: object, args: object) -> None:
    return None


class Args(BaseModel):
    n: int


def test_extra_workflows_load_from_the_environment() -> None:
    env = {"EXA_ORCH_EXTRA_WORKFLOWS": " tests.runtime.workflows:WORKFLOWS , "}
    assert load_extra_workflows(env) == WORKFLOWS
    assert {"rt.steps", "rt.webset", "rt.websets"} <= set(
        default_workflows(load_extra_workflows(env)).types()
    )
    assert load_extra_workflows({}) == []


@pytest.mark.parametrize(
    "value",
    [
        "tests.runtime.workflows",
        "no.such.module:X",
        "tests.runtime.workflows:NOPE",
        "tests.runtime.workflows:StepsArgs",
    ],
)
def test_a_bad_extra_workflows_entry_is_a_config_error(value: str) -> None:
    with pytest.raises(ConfigError) as info:
        load_extra_workflows({"EXA_ORCH_EXTRA_WORKFLOWS": value})
    assert info.value.code is ErrorCode.CONFIG_ERROR
    assert "EXA_ORCH_EXTRA_WORKFLOWS" in info.value.message


def test_registry_refuses_a_second_spec_for_a_type_and_suggests_close_types() -> None:
    spec = WorkflowSpec("a.b", Args, _noop)
    registry = WorkflowRegistry([spec])
    registry.register(spec)  # the same spec again is harmless
    with pytest.raises(ValueError):
        registry.register(WorkflowSpec("a.b", Args, _noop))
    with pytest.raises(InvalidParams) as info:
        registry.get("a.c")
    assert "'a.b'" in (info.value.hint or "")


def test_spec_validation_names_every_bad_field() -> None:
    spec = WorkflowSpec("a.b", Args, _noop)
    with pytest.raises(InvalidParams) as info:
        spec.validate({"n": "x"})
    assert info.value.fields == ["n"]
    assert spec.dump(spec.validate({"n": 3})) == {"n": 3}


@pytest.mark.parametrize("module", [exa_orch.runtime, exa_orch.workflows])
def test_all_is_sorted_and_complete(module: object) -> None:
    exported = module.__all__  # type: ignore[attr-defined]
    assert exported == sorted(exported)
    public = {
        name
        for name, value in vars(module).items()
        if not name.startswith("_") and getattr(value, "__module__", "").startswith("exa_orch")
    }
    assert public <= set(exported)

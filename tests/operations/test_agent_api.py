"""research.* speaks the Agent API as its spec says (issue 35): Exa's codes reach the caller with
the right exa-orch code and hint, a finished run's cancel answers the run, and every Agent API
request carries the beta header (counted at the simulator)."""

from __future__ import annotations

import httpx
import pytest

from exa_orch.errors import ErrorCode, GatewayError, OrchError
from exa_orch.gateway.agent_api import AGENT_CODES, BETA
from exa_orch.gateway.errors import error_from_response

from .conftest import Ops


async def test_an_unknown_previous_run_is_the_callers_mistake_named_by_exas_code(ops: Ops) -> None:
    with pytest.raises(OrchError) as refused:
        await ops("research.create", {"instructions": "more of the same", "previousRunId": "agent_run_nope"})
    said = refused.value.to_dict()
    assert said["code"] == "INVALID_PARAMS" and said["exaCode"] == "PREVIOUS_RUN_NOT_FOUND"
    assert "PREVIOUS_RUN_NOT_FOUND" in said["message"]
    assert "run id" in said["hint"] and "externalId works in its place" not in said["hint"]


async def test_every_agent_api_request_carries_the_beta_header_and_a_finished_runs_cancel_answers_it(
    ops: Ops,
) -> None:
    made = await ops("research.create", {"instructions": "AI startups in Europe", "effort": "minimal"})
    rid = made["researchId"]
    done = await ops("research.pollUntilFinished", {"researchId": rid, "timeout": 60})
    assert done["status"] == "completed"
    cancelled = await ops("research.cancel", {"researchId": rid})  # finished: answered as it is
    assert cancelled["status"] == "completed"
    await ops("research.list", {"limit": 5})
    await ops("research.get", {"researchId": rid})
    agent = [e for e in ops.sim.log() if e["path"].startswith("/agent/")]
    paths = {e["path"] for e in agent}
    assert {"/agent/runs", f"/agent/runs/{rid}", f"/agent/runs/{rid}/cancel"} <= paths
    assert [e["beta"] for e in agent] == [BETA] * len(agent), agent
    assert all(e["status"] == 200 for e in agent), agent  # no finished-run refusal (409)


@pytest.mark.parametrize(
    ("status", "code", "expected"),
    [
        (400, "INVALID_REQUEST", ErrorCode.INVALID_PARAMS),
        (400, "INVALID_OUTPUT_SCHEMA", ErrorCode.INVALID_PARAMS),
        (400, "PREVIOUS_RUN_NOT_FOUND", ErrorCode.INVALID_PARAMS),
        (400, "PREVIOUS_RUN_NOT_COMPLETED", ErrorCode.INVALID_PARAMS),
        (400, "MISSING_BETA_HEADER", ErrorCode.API_ERROR),
        (400, "INVALID_BETA_HEADER", ErrorCode.API_ERROR),
        (401, "TEAM_NOT_FOUND", ErrorCode.AUTHENTICATION_ERROR),
        (404, "RUN_NOT_FOUND", ErrorCode.RESOURCE_NOT_FOUND),
        (429, "CONCURRENCY_LIMIT_REACHED", ErrorCode.RATE_LIMITED),
        (500, "TIMEOUT", ErrorCode.API_ERROR),
        (500, "SERVER_ERROR", ErrorCode.API_ERROR),
    ],
)
def test_each_agent_api_code_maps_to_its_exa_orch_code_and_keeps_exas(
    status: int, code: str, expected: ErrorCode
) -> None:
    body = b'{"error": {"type": "X", "code": "%s", "message": "said %s", "param": "previousRunId"}}' % (
        code.encode(),
        code.encode(),
    )
    error = error_from_response(
        status, httpx.Headers({"x-request-id": "req_1"}), body, method="POST", path="/agent/runs"
    )
    assert isinstance(error, GatewayError) and error.code is expected
    out = error.to_dict()
    assert out["exaCode"] == code and f"said {code}" in out["message"] and out["requestId"] == "req_1"
    assert out["hint"] == AGENT_CODES[code][1]


def test_every_code_of_the_specs_agent_error_is_mapped() -> None:
    from tests import contract

    codes = contract.spec("agent")["components"]["schemas"]["AgentError"]["properties"]["code"]["enum"]
    assert set(codes) == set(AGENT_CODES)

"""MCP prompts: the research recipes as ready `tasks.create` calls.

`prompts/list` names four recipes with their arguments; `prompts/get` fills one in and answers a
user message that says what the task does and carries the call to make, as JSON
(`{"operation": "tasks.create", "args": {...}}`, the manage_websets tool's arguments), also in the
answer's `_meta["exa-orch/call"]` for a client that runs it itself. Each call is one that
tasks.create accepts as it stands (tests/mcp/test_resources_prompts.py feeds each back).

- market-map: the companies of a market (lifecycle.harvest, companies, with where they are,
  funding and size as enrichments);
- people-finder: people in a role (lifecycle.harvest, people, with their employer and profile);
- due-diligence: one company researched to a structured brief (research.deep with a schema);
- claim-check: a claim tested against the evidence for and against it (adversarial.verify with a
  synthesis).

Prompt arguments are strings (MCP); `count` is read as a whole number from 1 to 1000.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import MCPError

from exa_orch.mcp.hooked import HookedServer

Json = dict[str, Any]
CALL_META = "exa-orch/call"


@dataclass(frozen=True)
class Recipe:
    """One prompt: its name, what it does, its arguments (name -> (description, required)), and
    the tasks.create args it makes from the arguments given."""

    name: str
    title: str
    description: str
    arguments: dict[str, tuple[str, bool]]
    build: Callable[[dict[str, str]], Json]

    def prompt(self) -> types.Prompt:
        return types.Prompt(
            name=self.name,
            title=self.title,
            description=self.description,
            arguments=[
                types.PromptArgument(name=n, description=d, required=r)
                for n, (d, r) in self.arguments.items()
            ],
        )


def _count(args: dict[str, str], default: int) -> int:
    text = args.get("count", "").strip()
    if not text:
        return default
    if not text.isdigit() or not 1 <= int(text) <= 1000:
        raise MCPError(
            code=types.INVALID_PARAMS, message=f"count: a whole number from 1 to 1000, got {text[:20]!r}"
        )
    return int(text)


def _where(args: dict[str, str]) -> str:
    region = args.get("region", "").strip()
    return f" in {region}" if region else ""


def market_map(args: dict[str, str]) -> Json:
    market = args["market"]
    return {
        "type": "lifecycle.harvest",
        "query": f"companies in the {market} market{_where(args)}",
        "entity": {"type": "company"},
        "count": _count(args, 25),
        "criteria": [{"description": f"the company sells a product or service in {market}"}],
        "enrichments": [
            {"description": "Country of the headquarters", "format": "text"},
            {"description": "Total funding raised, in US dollars", "format": "text"},
            {"description": "Number of employees", "format": "number"},
        ],
    }


def people_finder(args: dict[str, str]) -> Json:
    role = args["role"]
    at = args.get("company", "").strip()
    query = f"{role}" + (f" at {at}" if at else "") + _where(args)
    criteria = [{"description": f"the person works as {role}"}]
    if at:
        criteria.append({"description": f"the person works at {at}"})
    return {
        "type": "lifecycle.harvest",
        "query": query,
        "entity": {"type": "person"},
        "count": _count(args, 20),
        "criteria": criteria,
        "enrichments": [{"description": "Current employer", "format": "text"}],
    }


BRIEF_SCHEMA: Json = {
    "type": "object",
    "properties": {
        "overview": {"type": "string", "description": "what the company does, for whom"},
        "founded": {"type": "string"},
        "headquarters": {"type": "string"},
        "funding": {"type": "string", "description": "rounds, amounts and investors"},
        "leadership": {"type": "array", "items": {"type": "string"}},
        "competitors": {"type": "array", "items": {"type": "string"}},
        "risks": {"type": "array", "items": {"type": "string"}, "description": "legal, financial, market"},
    },
    "required": ["overview", "funding", "leadership", "risks"],
}


def due_diligence(args: dict[str, str]) -> Json:
    company = args["company"]
    focus = args.get("focus", "").strip()
    return {
        "type": "research.deep",
        "instructions": f"Due diligence on {company}: what it does, when and where it was founded, its "
        "funding, its leadership, its competitors and the risks an investor should know, each with sources."
        + (f" Focus on: {focus}." if focus else ""),
        "outputSchema": BRIEF_SCHEMA,
    }


def claim_check(args: dict[str, str]) -> Json:
    claim = args["claim"]
    return {
        "type": "adversarial.verify",
        "thesis": claim,
        "thesisQuery": f"evidence that {claim}",
        "antithesisQuery": f"evidence against the claim that {claim}",
        "count": _count(args, 10),
        "synthesize": True,
    }


COUNT = ("how many to collect (a whole number; default {})", False)
RECIPES = {
    r.name: r
    for r in (
        Recipe(
            "market-map", "Market map", "Map the companies of a market, with where they are, funding and size",
            {"market": ("the market, e.g. 'carbon accounting software'", True),
             "region": ("where, e.g. 'Europe' (optional)", False),
             "count": (COUNT[0].format(25), False)},
            market_map,
        ),
        Recipe(
            "people-finder", "People finder", "Find people in a role (at a company, in a region)",
            {"role": ("the role, e.g. 'head of data'", True),
             "company": ("their employer (optional)", False),
             "region": ("where (optional)", False),
             "count": (COUNT[0].format(20), False)},
            people_finder,
        ),
        Recipe(
            "due-diligence", "Due diligence", "Research one company to a structured brief with sources",
            {"company": ("the company, e.g. 'Klarna'", True), "focus": ("what to look at most (optional)", False)},
            due_diligence,
        ),
        Recipe(
            "claim-check", "Claim check", "Test a claim against evidence for and against it, with a verdict",
            {"claim": ("the claim, e.g. 'remote work raises productivity'", True),
             "count": (COUNT[0].format(10), False)},
            claim_check,
        ),
    )
}  # fmt: skip


def get(name: str, arguments: dict[str, str] | None) -> types.GetPromptResult:
    """The filled-in recipe `name`: MCPError -32602 for an unknown one or a missing argument."""
    recipe = RECIPES.get(name)
    if recipe is None:
        raise MCPError(
            code=types.INVALID_PARAMS,
            message=f"unknown prompt {name[:60]!r}; prompts/list has: {', '.join(RECIPES)}",
        )
    given = {k: v for k, v in (arguments or {}).items() if isinstance(v, str)}
    missing = [
        n for n, (_, required) in recipe.arguments.items() if required and not given.get(n, "").strip()
    ]
    if missing:
        raise MCPError(
            code=types.INVALID_PARAMS, message=f"prompt {name}: missing argument(s) {', '.join(missing)}"
        )
    call = {"operation": "tasks.create", "args": recipe.build({k: v.strip() for k, v in given.items()})}
    text = (
        f"{recipe.description}. Start it as a durable task: call the manage_websets tool with the "
        "arguments below, then follow it with tasks.get / tasks.result (it survives restarts), and "
        "hand the result on with tasks.export.\n\n```json\n" + json.dumps(call, indent=2) + "\n```"
    )
    return types.GetPromptResult(
        description=recipe.description,
        messages=[types.PromptMessage(role="user", content=types.TextContent(text=text))],
        _meta={CALL_META: call},
    )


def install_prompts(server: HookedServer) -> None:
    """Serve prompts/list and prompts/get (the recipes) on `server`."""

    async def list_prompts(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListPromptsResult:
        return types.ListPromptsResult(prompts=[r.prompt() for r in RECIPES.values()])

    async def get_prompt(
        ctx: ServerRequestContext[Any], params: types.GetPromptRequestParams
    ) -> types.GetPromptResult:
        return get(params.name, params.arguments)

    server.add_request_handler("prompts/list", types.PaginatedRequestParams, list_prompts)
    server.add_request_handler("prompts/get", types.GetPromptRequestParams, get_prompt)

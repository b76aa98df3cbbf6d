"""A person at a browser, for the tests of keys per principal: an MCP elicitation callback that,
asked by URL-mode elicitation, opens the link (real HTTP to exa-orch's key page) and pastes a key."""

from __future__ import annotations

from typing import Any

import httpx
import mcp_types as types
from mcp.client.context import ClientRequestContext

from tests.support import WAIT


class KeyBrowser:
    """Answers each URL-mode elicitation with the next of `keys`: opens the page, posts the key on its
    form, accepts (None declines instead). Records what it was asked, and the completions it heard
    (pass `on_message` as the client's message_handler). A form for a key fails the test.
    `bearer`: the exa-orch token it proves itself with on the page (a bearer-token principal's)."""

    def __init__(self, *keys: str | None, bearer: str | None = None) -> None:
        self.keys = list(keys)
        self.bearer = bearer
        self.asked: list[types.ElicitRequestURLParams] = []
        self.forms: list[types.ElicitRequestFormParams] = []
        self.pages: list[str] = []
        self.completed: list[str] = []

    async def __call__(self, ctx: ClientRequestContext, params: types.ElicitRequestParams) -> Any:
        if isinstance(params, types.ElicitRequestFormParams):
            self.forms.append(params)
            return types.ElicitResult(action="decline")
        self.asked.append(params)
        key = self.keys.pop(0) if self.keys else None
        if key is None:
            return types.ElicitResult(action="decline")
        async with httpx.AsyncClient(timeout=WAIT) as http:
            page = await http.get(params.url)
            assert page.status_code == 200, page.text
            self.pages.append(page.text)
            token = params.url.rsplit("/", 1)[1]
            form = {"token": token, "apiKey": key}
            if self.bearer is not None:
                form["principalToken"] = self.bearer
            done = await http.post(params.url, data=form)
            assert done.status_code == 200, done.text
            assert key not in done.text  # never echoed
        return types.ElicitResult(action="accept")

    async def on_message(self, message: Any) -> None:
        if isinstance(message, types.ElicitCompleteNotification):
            self.completed.append(message.params.elicitation_id)

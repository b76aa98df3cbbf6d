"""URLs are checked before any request: page URLs are http(s), webhook hosts are public.

Every refusal is INVALID_PARAMS naming the field, and the simulator (Exa) receives nothing.
"""

from __future__ import annotations

from typing import Any

import pytest

from exa_orch.errors import ErrorCode, InvalidParams

from .conftest import Ops

HOOK_EVENTS = ["webset.created"]
NOT_PUBLIC = [
    "http://127.0.0.1:22/",
    "http://127.1/",
    "http://2130706433/",
    "http://0x7f000001/",
    "http://[::1]:8080/hook",
    "http://[::ffff:127.0.0.1]/",
    "http://169.254.169.254/latest/meta-data/",
    "http://[fe80::1]/",
    "http://10.1.2.3/hook",
    "http://172.16.0.9/hook",
    "https://192.168.1.1/hook",
    "http://100.64.0.1/",
    "http://0.0.0.0/",
    "http://localhost:8000/hook",
    "http://LOCALHOST./hook",
    "http://api.localhost/hook",
    "http://metadata.google.internal/computeMetadata/v1/",
    "http://intranet/hook",
    # IPv6 spellings that carry a private IPv4 address, or a local translator's prefix:
    "http://[64:ff9b::a9fe:a9fe]/",  # NAT64 (RFC 6052) over 169.254.169.254
    "http://[64:ff9b::169.254.169.254]/latest/meta-data/",
    "http://[64:ff9b::7f00:1]/",
    "http://[64:FF9B:0:0:0:0:a00:1]/",
    "http://[64:ff9b:1::808:808]/",  # the local-use NAT64 prefix (RFC 8215), whatever it embeds
    "http://[::ffff:0:a9fe:a9fe]/",  # SIIT IPv4-translated (RFC 2765)
    "http://[::a9fe:a9fe]/",  # IPv4-compatible
    "http://[::ffff:a9fe:a9fe]/",  # IPv4-mapped, in hex
    "http://[2002:a9fe:a9fe::1]/",  # 6to4
    "http://[::]/",
]


async def _refused(ops: Ops, name: str, args: dict[str, Any]) -> InvalidParams:
    before = ops.requests()
    with pytest.raises(InvalidParams) as err:
        await ops(name, args)
    assert err.value.code == ErrorCode.INVALID_PARAMS
    assert ops.requests() == before, f"{name} {args} reached Exa"
    return err.value


async def test_page_urls_must_be_http_or_https(ops: Ops) -> None:
    err = await _refused(ops, "exa.findSimilar", {"url": "notaurl"})
    assert "url" in err.fields and "http" in err.message
    for bad in (
        "file:///etc/passwd",
        "ftp://example.com/a",
        "javascript:alert(1)",
        "https://",
        "//example.com",
    ):
        err = await _refused(ops, "exa.getContents", {"urls": ["https://example.com/fine", bad]})
        assert any(f.startswith("urls") for f in err.fields), err.fields
    found = await ops("exa.findSimilar", {"url": "https://example.com/about"})
    assert "results" in found


@pytest.mark.parametrize("url", NOT_PUBLIC)
async def test_webhooks_to_this_machine_or_a_private_network_are_refused(ops: Ops, url: str) -> None:
    err = await _refused(ops, "webhooks.create", {"url": url, "events": HOOK_EVENTS})
    assert err.fields == ["url"]
    err = await _refused(ops, "webhooks.update", {"id": "wh_any", "url": url})
    assert err.fields == ["url"]


async def test_a_public_webhook_url_is_sent(ops: Ops) -> None:
    for url in (
        "https://hooks.example.com/exa",
        "http://8.8.8.8/hook",
        "https://[2606:4700::1111]/h",
        "http://[64:ff9b::808:808]/h",  # NAT64 over a public address
    ):
        made = await ops("webhooks.create", {"url": url, "events": HOOK_EVENTS})
        assert made["url"] == url
    await _refused(ops, "webhooks.create", {"url": "file:///tmp/hook", "events": HOOK_EVENTS})


async def test_a_refused_ipv6_spelling_names_the_address_it_carries(ops: Ops) -> None:
    err = await _refused(
        ops, "webhooks.create", {"url": "http://[64:ff9b::a9fe:a9fe]/", "events": HOOK_EVENTS}
    )
    assert "64:ff9b::a9fe:a9fe (that is 169.254.169.254)" in err.message

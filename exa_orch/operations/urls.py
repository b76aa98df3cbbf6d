"""URLs checked here before any request: a page URL for Exa to read, and a webhook URL for Exa to call.

- `WebUrl` (exa.findSimilar `url`, exa.getContents `urls`): an absolute http or https URL with a
  host. `notaurl`, `file:///etc/passwd`, `ftp://...` are refused as INVALID_PARAMS naming the field.
- `WebhookUrl` (webhooks.create / update `url`): a WebUrl whose host is not one of this machine's
  or a private network's: loopback, link-local (169.254.x.x, the cloud metadata address), private
  (10/8, 172.16/12, 192.168/16, fc00::/7), carrier-grade NAT, unspecified, multicast and reserved
  addresses are refused, in every spelling a URL parser reads as an IP (`127.1`, `0x7f000001`,
  `2130706433`, `[::ffff:127.0.0.1]`) or an IPv6 address that carries one (IPv4-mapped,
  IPv4-compatible, SIIT, 6to4, NAT64 `[64:ff9b::a9fe:a9fe]`; a local NAT64 prefix at all), and so are the names `localhost` and `*.localhost`, names
  under `.internal`, `.local` and `.localdomain`, and single-label names (`metadata`, `intranet`).
  Other host names are not resolved here: Exa resolves and calls them from its own network, where
  this machine's DNS answer says nothing (and could change between the check and the call).
"""

from __future__ import annotations

import ipaddress
import socket
from typing import Annotated
from urllib.parse import urlsplit

from pydantic import AfterValidator

SCHEMES = ("http", "https")
_LOCAL_SUFFIXES = (".localhost", ".internal", ".local", ".localdomain")


def check_web_url(value: str) -> str:
    """`value` if it is an absolute http(s) URL with a host; ValueError saying what is wrong."""
    try:
        parts = urlsplit(value.strip())
        host = parts.hostname
    except ValueError as exc:  # a bad IPv6 literal, a port that is not a number
        raise ValueError(
            f"not a URL ({exc}); give an absolute http(s) URL such as https://example.com/page"
        ) from None
    if parts.scheme.lower() not in SCHEMES:
        shown = f"the scheme {parts.scheme!r}" if parts.scheme else "no scheme"
        raise ValueError(
            f"{shown}: only http and https URLs are accepted; give an absolute URL such as "
            "https://example.com/page"
        )
    if not host:
        raise ValueError("the URL has no host; give an absolute URL such as https://example.com/page")
    try:
        parts.port  # noqa: B018 - a port that is not a number (or out of range) raises here
    except ValueError:
        raise ValueError("the URL's port is not a number from 0 to 65535") from None
    return value


def _literal_ip(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address `host` spells, in any form a URL parser reads as one (`127.1`, `0x7f.1`,
    `2130706433`, `::ffff:10.0.0.1`), or None for a name."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        try:
            # inet_aton takes the shorthand and numeric forms (WHATWG URL parsers read them too).
            address = ipaddress.IPv4Address(socket.inet_aton(host))
        except OSError:
            return None
    if isinstance(address, ipaddress.IPv6Address):
        mapped = address.ipv4_mapped or address.sixtofour
        if mapped is not None:
            return mapped
        if int(address) > 1 and any(address in n for n in _EMBEDDING_96):
            return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)  # its last 32 bits
    return address


# IPv6 prefixes that carry an IPv4 address in their last 32 bits: NAT64's well-known prefix
# (RFC 6052: 64:ff9b::a9fe:a9fe is 169.254.169.254 through a translator), SIIT's IPv4-translated
# addresses (RFC 2765) and the deprecated IPv4-compatible ones (::a.b.c.d). Python calls the
# first global whatever it embeds. 64:ff9b:1::/48 (RFC 8215) is a local network's own translator.
_EMBEDDING_96 = tuple(ipaddress.IPv6Network(n) for n in ("64:ff9b::/96", "::ffff:0:0:0/96", "::/96"))
_LOCAL_NAT64 = ipaddress.IPv6Network("64:ff9b:1::/48")


def check_webhook_url(value: str) -> str:
    """`value` if it is a WebUrl Exa may call (see the module docstring); ValueError otherwise."""
    check_web_url(value)
    host = (urlsplit(value.strip()).hostname or "").rstrip(".").lower()
    address = _literal_ip(host)
    if address is not None:
        if not address.is_global or address.is_multicast or address in _LOCAL_NAT64:
            shown = host if host.strip("[]") == str(address) else f"{host.strip('[]')} (that is {address})"
            raise ValueError(
                f"{shown} is a loopback, link-local, private or reserved address: Exa delivers "
                "webhooks to public hosts only; give a public https URL"
            )
        return value
    if host == "localhost" or host.endswith(_LOCAL_SUFFIXES) or "." not in host:
        raise ValueError(
            f"the host {host!r} names this machine or a local network: Exa delivers webhooks to "
            "public hosts only; give a public https URL such as https://hooks.example.com/exa"
        )
    return value


WebUrl = Annotated[str, AfterValidator(check_web_url)]
WebhookUrl = Annotated[str, AfterValidator(check_webhook_url)]

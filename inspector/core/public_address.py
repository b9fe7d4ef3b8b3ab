"""Whether a host is a public internet address, for fetches a server's data triggers (remote icons).

A server may name any URL; MCP Lens must not become its way into the user's machine or network. A host
is refused when it names this computer (``localhost``, ``*.localhost``) or when any address it resolves
to is loopback, link-local, private, multicast, unspecified or otherwise not global. IP literals are read
in every form the resolver accepts (``[::1]``, ``[::ffff:127.0.0.1]``, ``2130706433``, ``0177.0.0.1``,
``0x7f.1``) before any lookup.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Callable

Resolver = Callable[[str, int], list[str]]  # host, port → the addresses a connection may reach
_INET_ATON = re.compile(r"(?:0x[0-9a-f]*|[0-9]+)(?:\.(?:0x[0-9a-f]*|[0-9]+)){0,3}")


def resolve(host: str, port: int) -> list[str]:
    """Every address `host` resolves to (IPv4 and IPv6); `OSError` when it resolves to none."""
    return sorted({str(info[4][0]) for info in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)})


def not_public(address: str) -> str:
    """What kind of non-public address `address` is ("a loopback address", …); "" for a public one."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])  # an IPv6 zone (fe80::1%eth0) aside
    except ValueError:
        return "not an IP address"
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    for kind, test in (
        ("an unspecified address", ip.is_unspecified),
        ("a loopback address", ip.is_loopback),
        ("a link-local address", ip.is_link_local),
        ("a multicast address", ip.is_multicast),
        ("a private address", ip.is_private),
        ("not a public address", not ip.is_global),
    ):
        if test:
            return kind
    return ""


def literal_address(host: str) -> str | None:
    """The IP address `host` spells (in any form the resolver reads as one), else None."""
    name = host.strip("[]").lower()
    try:
        return str(ipaddress.ip_address(name.split("%", 1)[0]))
    except ValueError:
        pass
    if _INET_ATON.fullmatch(name):
        try:
            return socket.inet_ntoa(socket.inet_aton(name))
        except OSError:
            return None
    return None


def literal_refusal(host: str) -> str:
    """The kind of address `host` names by its form alone ("loopback", "private", …), never contacted;
    "" when only resolving it can tell (a name, or a public IP literal)."""
    name = host.strip("[]").rstrip(".").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return "loopback"
    literal = literal_address(name)
    kind = not_public(literal) if literal is not None else ""
    return (
        "not public"
        if kind.startswith("not ")
        else kind.removeprefix("an ").removeprefix("a ").removesuffix(" address")
    )


def host_refusal(host: str, port: int, resolver: Resolver = resolve) -> str:
    """Why `host` is never contacted, in words; "" when every address it reaches is public."""
    name = host.strip("[]").rstrip(".").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return f"the host {host} is this computer: only public internet addresses are contacted"
    literal = literal_address(name)
    try:
        addresses = [literal] if literal is not None else resolver(name, port)
    except (OSError, UnicodeError) as exc:
        return f"the host {host} could not be resolved ({exc})"
    if not addresses:
        return f"the host {host} resolves to no address"
    for address in addresses:
        if kind := not_public(address):
            named = host if address == host.strip("[]") else f"{host} ({address})"
            return f"the host {named} is {kind}: only public internet addresses are contacted"
    return ""

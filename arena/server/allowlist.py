"""Which bot endpoints the organizer allows, checked before any connection is made.

The arena connects wherever a submitted endpoint points, so without a list it would be a
tool for probing other hosts (and the verification errors would say what listens
where). A pattern is a host rule with an optional port or port range:

* an address or network: ``127.0.0.0/8``, ``::1``, ``[fd00::/8]:50000-50999``; matches
  only endpoints written as an address (names are never resolved here);
* a host name or glob: ``localhost``, ``*.bots.example.org:50051``; matches only
  endpoints written as a name, case-insensitively. The organizer trusts the DNS of the
  names allowed: the arena connects wherever they resolve;
* ``*``: any host (only for a closed network).

The default is loopback only.
"""

from __future__ import annotations

import fnmatch
import ipaddress
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from arena.referee.channels import EndpointError, loopback_host, parse_bot_endpoint

DEFAULT_ALLOW: Final = ("127.0.0.0/8", "::1", "localhost")
"""Loopback only."""

IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
_DIGITS: Final = re.compile(r"[0-9]{1,5}")
_HOST_GLOB: Final = re.compile(r"[A-Za-z0-9_.*?-]+")
"""A name rule: ASCII letters, digits, ``_ . -`` and the globs ``* ?``."""


class AllowlistError(ValueError):
    """A pattern that is not a host rule."""


@dataclass(frozen=True, slots=True)
class HostRule:
    """One pattern."""

    text: str
    """As written."""
    network: IPNetwork | None
    """For address rules."""
    name_glob: str | None
    """For name rules (lower case); ``*`` for any host."""
    ports: tuple[int, int] | None
    """Inclusive port range, or None for any port."""

    def allows(self, host: str, port: int) -> bool:
        """Whether ``host`` (no brackets) and ``port`` match."""
        if self.ports is not None and not self.ports[0] <= port <= self.ports[1]:
            return False
        if self.name_glob == "*":
            return True
        address = _address(host)
        if address is None:
            return self.name_glob is not None and fnmatch.fnmatchcase(host.lower(), self.name_glob)
        if self.network is None:
            return False
        candidates = [address]
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            candidates.append(address.ipv4_mapped)  # ::ffff:10.1.2.3 is 10.1.2.3
        return any(a.version == self.network.version and a in self.network for a in candidates)


def _address(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


def _ports(text: str, pattern: str) -> tuple[int, int]:
    low, dash, high = text.partition("-")
    if not all(_DIGITS.fullmatch(part) for part in ((low, high) if dash else (low,))):
        raise AllowlistError(f"allow pattern {pattern!r}: bad port {text!r}")
    ports = (int(low), int(high) if dash else int(low))
    if not 1 <= ports[0] <= ports[1] <= 65535:
        raise AllowlistError(f"allow pattern {pattern!r}: ports must be 1..65535, low-high")
    return ports


def parse_rule(pattern: str) -> HostRule:
    """A pattern as a rule; AllowlistError if it is none."""
    text = pattern.strip()
    host, ports = text, None
    if text.startswith("["):
        host, bracket, rest = text[1:].partition("]")
        if not bracket or (rest and not rest.startswith(":")):
            raise AllowlistError(f"allow pattern {pattern!r}: write [IPV6] or [IPV6]:PORTS")
        if rest:
            ports = _ports(rest[1:], pattern)
    elif text.count(":") == 1:
        host, _, port_text = text.partition(":")
        ports = _ports(port_text, pattern)
    if not host:
        raise AllowlistError(f"allow pattern {pattern!r} names no host")
    if host == "*":
        return HostRule(text, None, "*", ports)
    try:
        network = ipaddress.ip_network(host, strict=False)
    except ValueError:
        if not _HOST_GLOB.fullmatch(host):
            raise AllowlistError(
                f"allow pattern {pattern!r}: not an address, network or host name"
            ) from None
        return HostRule(text, None, host.lower(), ports)
    return HostRule(text, network, None, ports)


class Allowlist:
    """The organizer's patterns."""

    def __init__(self, patterns: Sequence[str] = DEFAULT_ALLOW) -> None:
        if not patterns:
            raise AllowlistError("give at least one --allow pattern (default: loopback)")
        self.rules = tuple(parse_rule(p) for p in patterns)

    @property
    def text(self) -> str:
        """The patterns as written, comma-separated."""
        return ", ".join(rule.text for rule in self.rules)

    def refusal(self, endpoint: str) -> str | None:
        """Why ``endpoint`` is refused, or None if it is allowed. Pure: no DNS, no
        connection."""
        try:
            host, port, _ = parse_bot_endpoint(endpoint)
        except EndpointError as error:
            return str(error)
        bare = host[1:-1] if host.startswith("[") else host
        if any(rule.allows(bare, port) for rule in self.rules):
            return None
        return (
            f"endpoint {endpoint!r} is outside this arena's allowlist ({self.text}); the arena "
            "connects only to hosts its organizer allows. Run your bot on an allowed host, "
            "or ask the organizer to add yours (arena serve --allow PATTERN)"
        )


LOOPBACK: Final = "loopback"
"""The host of ``endpoint_key`` for every loopback address and for ``localhost``."""


def endpoint_key(endpoint: str) -> str:
    """``endpoint`` as the one bot process it reaches, to find the same endpoint under
    another spelling: no ``tls://``, addresses in canonical form (IPv4-mapped IPv6 as
    IPv4), names in lower case without a final dot, and every loopback address and
    ``localhost`` (``*.localhost``, RFC 6761) as one host, since a bot listening on
    ``0.0.0.0`` or ``[::]`` answers on all of them. Pure, as ``Allowlist.refusal``:
    other names are never resolved. Text that is no endpoint is keyed as written."""
    try:
        host, port, _ = parse_bot_endpoint(endpoint)
    except EndpointError:
        return endpoint.strip().lower()
    if loopback_host(host):
        return f"{LOOPBACK}:{port}"
    bare = host[1:-1] if host.startswith("[") else host
    address = _address(bare)
    if address is None:
        return f"{bare.lower().rstrip('.')}:{port}"
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return f"{address}:{port}"

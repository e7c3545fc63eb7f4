"""Which addresses we send to: the one policy for webhook addresses and push endpoints, checked when
a player saves one and again, by notifications.outbound, on every send (DNS may answer differently
by then)."""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from django.conf import settings

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

# The webhook_url column's length, and the push endpoint column's.
MAX_URL_LENGTH = 500
MAX_ENDPOINT_LENGTH = 1000

# Never a receiver, whatever ipaddress.is_global says (on Python 3.11 it calls 192.0.0.8, 64:ff9b::/96
# and 2002::/16 global). From the IANA IPv4 and IPv6 Special-Purpose Address Registries (RFC 6890
# and its updates), plus multicast and the deprecated IPv4-compatible and site-local IPv6 blocks.
# 2001::/23 is refused whole: the few anycast services the registry lets through there take no webhooks.
NOT_A_RECEIVER: tuple[tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, str], ...] = tuple(
    (ipaddress.ip_network(network), name)
    for network, name in (
        ("0.0.0.0/8", "this network"),
        ("10.0.0.0/8", "private"),
        ("100.64.0.0/10", "shared address space (carrier NAT, cloud metadata)"),
        ("127.0.0.0/8", "loopback"),
        ("169.254.0.0/16", "link-local"),
        ("172.16.0.0/12", "private"),
        ("192.0.0.0/24", "IETF protocol assignments"),
        ("192.0.2.0/24", "documentation"),
        ("192.88.99.0/24", "6to4 relay anycast"),
        ("192.168.0.0/16", "private"),
        ("198.18.0.0/15", "benchmarking"),
        ("198.51.100.0/24", "documentation"),
        ("203.0.113.0/24", "documentation"),
        ("224.0.0.0/4", "multicast"),
        ("240.0.0.0/4", "reserved"),
        ("255.255.255.255/32", "limited broadcast"),
        ("::/96", "unspecified, loopback or IPv4-compatible"),
        ("::ffff:0:0/96", "IPv4-mapped"),
        ("64:ff9b::/96", "IPv4/IPv6 translation"),
        ("64:ff9b:1::/48", "local IPv4/IPv6 translation"),
        ("100::/64", "discard-only"),
        ("2001::/23", "IETF protocol assignments (Teredo among them)"),
        ("2001:db8::/32", "documentation"),
        ("2002::/16", "6to4"),
        ("3fff::/20", "documentation"),
        ("fc00::/7", "unique local"),
        ("fe80::/10", "link-local"),
        ("fec0::/10", "site-local"),
        ("ff00::/8", "multicast"),
    )
)

# Address forms that carry an IPv4 address inside; the well-known NAT64 prefix puts it in the last 32 bits.
NAT64_PREFIX = ipaddress.IPv6Network("64:ff9b::/96")
IPV4_COMPATIBLE = ipaddress.IPv6Network("::/96")

NOT_PUBLIC = "The host {host} cannot be found on the public internet."


class HostNotFound(Exception):
    """The host name does not resolve (no such name, or the resolver failed)."""


class AddressRefused(Exception):
    """The address is not one we send to. The message says why, for operators' logs."""


def embedded_ipv4(ip: IPAddress) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address stands for (mapped, 6to4, NAT64, Teredo, IPv4-compatible)."""
    if ip.version == 4:
        return []
    inside = [ip.ipv4_mapped, ip.sixtofour, *(ip.teredo or ())]
    if ip in NAT64_PREFIX or (ip in IPV4_COMPATIBLE and int(ip) > 1):  # :: and ::1 are themselves
        inside.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
    return [address for address in inside if address is not None]


def address_problem(ip: IPAddress) -> str | None:
    """Why we never send to `ip`, or None when it is a public address (and so is any it carries).
    The IPv4 address inside comes first, so that the reason names what the address really reaches."""
    for address in [*embedded_ipv4(ip), ip]:
        for network, name in NOT_A_RECEIVER:
            if address.version == network.version and address in network:
                where = "" if address == ip else f" (inside {ip})"
                return f"{address}{where} is in {network}, {name}"
        if not address.is_global or address.is_reserved or address.is_multicast:
            return f"{address} is not a global unicast address"
    return None


def resolve_host(host: str, port: int) -> list[IPAddress]:
    """The addresses `host` has now, from one lookup, in the resolver's order, without repeats."""
    try:
        answers = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    except (OSError, ValueError) as exc:  # ValueError: a name IDNA cannot encode
        raise HostNotFound(f"{host}: {exc}") from exc
    addresses = list(dict.fromkeys(ipaddress.ip_address(answer[4][0]) for answer in answers))
    if not addresses:
        raise HostNotFound(f"{host}: no address")
    return addresses


def resolve_public(host: str, port: int) -> list[IPAddress]:
    """The addresses of `host` from one lookup; refused when ANY of them is not public, since the
    connection could go to any of them (and a rebinding name hides a private one among public ones)."""
    addresses = resolve_host(host, port)
    for ip in addresses:
        problem = address_problem(ip)
        if problem:
            raise AddressRefused(f"{host} resolves to {problem}")
    return addresses


def url_shape_problem(url: str, *, what: str = "A webhook address", max_length: int = MAX_URL_LENGTH) -> str | None:
    """Why `url` cannot be `what` (a webhook address, a push endpoint) whatever its host resolves
    to, or None."""
    if len(url) > max_length:
        return f"{what} is at most {max_length} characters long."
    if any(ord(character) <= 32 or ord(character) == 127 for character in url):
        return f"{what} cannot contain spaces or control characters."
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return f"{what} needs a valid host, and a port (if any) from 1 to 65535."
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return f"{what} starts with https:// (or http://) and names a host."
    if "@" in parts.netloc:
        return f"{what} cannot carry a user name or password (user:password@host)."
    if port == 0:
        return f"{what} needs a valid host, and a port (if any) from 1 to 65535."
    return None


def default_port(scheme: str) -> int:
    return 443 if scheme == "https" else 80


def webhook_url_problem(url: str) -> str | None:
    """Why `url` cannot be a webhook, or None when it can: a sentence a player can act on."""
    return public_url_problem(url, url_shape_problem(url), allow_private=settings.WEBHOOK_ALLOW_PRIVATE)


def push_endpoint_problem(url: str) -> str | None:
    """Why `url` cannot be a push endpoint, or None: the webhook rules, and https (unless private
    addresses are allowed, for a local test service)."""
    what = "A push endpoint"
    problem = url_shape_problem(url, what=what, max_length=MAX_ENDPOINT_LENGTH)
    if not problem and not settings.PUSH_ALLOW_PRIVATE and urlsplit(url).scheme != "https":
        problem = f"{what} starts with https://."
    return public_url_problem(url, problem, allow_private=settings.PUSH_ALLOW_PRIVATE)


def public_url_problem(url: str, shape_problem: str | None, *, allow_private: bool) -> str | None:
    if shape_problem or allow_private:
        return shape_problem
    parts = urlsplit(url)
    host = parts.hostname
    try:
        resolve_public(host, parts.port or default_port(parts.scheme))
    except (HostNotFound, AddressRefused):
        # One sentence for both: telling them apart would say which names our own network knows.
        return NOT_PUBLIC.format(host=host)
    return None

"""The address a request comes from, for every limit that counts per client (DRF's throttles, the
login and password-reset limits).

X-Forwarded-For is written by whoever sends the request, so it is believed only as far as our own
proxies vouch for it: with TRUSTED_PROXY_COUNT = N, REMOTE_ADDR is the last proxy and each of the N
proxies appended the address it saw, so the client is the N-th entry from the right. Anything to
the left of that was sent by the client and is ignored.

One client is one IPv4 address, or one IPv6 /64: a subscriber is usually given a whole /64, so
counting single IPv6 addresses would hand anyone 2^64 fresh addresses. An IPv4 address written in
IPv6 form (::ffff:a.b.c.d) is that IPv4 address.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest

UNKNOWN_ADDRESS = "unknown"


def client_address(request: HttpRequest) -> str:
    """The client, as the limits count it: an IPv4 address, or an IPv6 /64 ("2001:db8:1:2::/64")."""
    remote = _normalised(request.META.get("REMOTE_ADDR", "")) or UNKNOWN_ADDRESS
    trusted = settings.TRUSTED_PROXY_COUNT
    if trusted <= 0:
        return remote
    forwarded = [entry.strip() for entry in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    if len(forwarded) < trusted:
        # Shorter than our own chain of proxies: the request did not come the way we expect.
        return remote
    return _normalised(forwarded[-trusted]) or remote


def _normalised(text: str) -> str:
    try:
        ip = ipaddress.ip_address(text.strip())
    except ValueError:
        return ""
    if ip.version == 6 and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.version == 6:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)

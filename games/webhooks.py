"""Which webhook addresses we accept."""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from django.conf import settings


def webhook_url_problem(url: str) -> str | None:
    """Why `url` cannot be a webhook, or None when it can."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return "A webhook address starts with https:// (or http://) and names a host."
    if settings.WEBHOOK_ALLOW_PRIVATE:
        return None
    # Keep players from pointing our workers at our own private network.
    try:
        addresses = {info[4][0] for info in socket.getaddrinfo(parts.hostname, parts.port or 443)}
    except OSError:
        return f"The host {parts.hostname} cannot be found."
    for address in addresses:
        ip = ipaddress.ip_address(address)
        if ip.is_private or ip.is_loopback or ip.is_link_local or ip.is_reserved or ip.is_multicast:
            return "A webhook address must be on the public internet."
    return None

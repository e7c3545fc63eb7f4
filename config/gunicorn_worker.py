"""The gunicorn worker class of the production command: uvicorn's, with its proxy headers off.

uvicorn rewrites the client's address from X-Forwarded-For whenever the peer is in
forwarded_allow_ips (127.0.0.1 unless told otherwise), so a request from the machine itself, or
through a local proxy, chose its own address, and every limit per address counted nothing. Here
the client is the socket's peer; X-Forwarded-For is read by Django alone, as far as
TRUSTED_PROXY_COUNT says (config/client_address.py), and X-Forwarded-Proto by
SECURE_PROXY_SSL_HEADER.
"""

from __future__ import annotations

from typing import Any

from uvicorn_worker import UvicornWorker as _UvicornWorker


class UvicornWorker(_UvicornWorker):
    CONFIG_KWARGS: dict[str, Any] = {**_UvicornWorker.CONFIG_KWARGS, "proxy_headers": False}

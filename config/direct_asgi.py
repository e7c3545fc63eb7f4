"""Async views served straight from the event loop, past Django's middleware: the event streams.

Under ASGI Django runs each request in a "thread-sensitive context" and every synchronous piece of
it (most middleware, the request_started and request_finished signals) in that context's own thread.
For a stream open for hours that thread idles for hours (81-89 KiB of a process each), and the ten
hops to and from it cost more CPU than the rest of opening a stream. A view marked `served_directly`
is answered here instead: the request is read as Django reads it, the view awaited, and the response
given the headers the middleware would give it (security, CSP, frame options); no thread is taken
for the request, and none held while it streams. Such a view does its own authentication (it has
no session or user from middleware) and answers its errors itself, in the API's error shape; what
the middleware would add besides is here too: 503 with Retry-After while the database is away, the
language of the request for the messages it sends, the CSRF check of an unsafe method.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable

from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.core.handlers.exception import response_for_exception
from django.http import HttpRequest, HttpResponseBase, StreamingHttpResponse
from django.urls import Resolver404, ResolverMatch, resolve, set_script_prefix
from django.utils import translation

from .api_errors import json_for_status
from .collector import tenure
from .outage import database_unavailable, gate, outage_log, outage_response


def served_directly(view: Callable) -> Callable:
    """Mark an async view to be served past the middleware (see the module's docstring)."""
    view.served_directly = True
    return view


def is_served_directly(view: Callable) -> bool:
    return getattr(view, "served_directly", False)


SAFE_METHODS = ("GET", "HEAD", "OPTIONS", "TRACE")


class CsrfCheck:
    """CsrfViewMiddleware's check of an unsafe request, as the middleware makes it before the view
    (it reads the cookie and the form, nothing from the database): its refusal in the error shape."""

    def __init__(self) -> None:
        from django.middleware.csrf import CsrfViewMiddleware

        self.middleware = CsrfViewMiddleware(lambda request: None)

    def refusal(self, request: HttpRequest, match: ResolverMatch) -> HttpResponseBase | None:
        if request.method in SAFE_METHODS:
            return None
        self.middleware.process_request(request)
        refused = self.middleware.process_view(request, match.func, match.args, match.kwargs)
        return None if refused is None else json_for_status(refused.status_code)


class ResponseHeaders:
    """The middleware that only adds headers to a response, run inline: none touches the database."""

    def __init__(self) -> None:
        from csp.middleware import CSPMiddleware
        from django.middleware.clickjacking import XFrameOptionsMiddleware
        from django.middleware.security import SecurityMiddleware

        def unused(request: HttpRequest) -> HttpResponseBase:
            raise AssertionError("only process_response is called")

        # Innermost first, as Django would run them on the way out.
        self.middleware = [XFrameOptionsMiddleware(unused), CSPMiddleware(unused), SecurityMiddleware(unused)]

    def add(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        for middleware in self.middleware:
            response = middleware.process_response(request, response)
        return response


class DirectStream(StreamingHttpResponse):
    """The response of a view served directly that streams: `chunks`, an async iterator of bytes,
    sent as they come."""

    def __init__(self, chunks: AsyncIterator[bytes], content_type: str) -> None:
        super().__init__(chunks, content_type=content_type)
        self.chunks = chunks


def header_list(response: HttpResponseBase) -> list[tuple[bytes, bytes]]:
    """The headers as ASGI sends them (as Django's handler makes them; a stream sets no cookie)."""
    return [(name.encode("ascii"), value.encode("latin1")) for name, value in response.items()]


class DirectHandler(ASGIHandler):
    """Django's ASGI handler for one request to a view marked served_directly, without its
    thread-sensitive context, signals or middleware."""

    def __init__(self) -> None:
        super().__init__()
        self.headers = ResponseHeaders()
        self.csrf = CsrfCheck()

    async def serve(self, scope, receive, send, match: ResolverMatch) -> None:
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        set_script_prefix(get_script_prefix(scope))
        request, error_response = self.create_request(scope, body_file)
        if request is None:
            body_file.close()
            await self.send_response(error_response, send)
            return
        request.resolver_match = match
        # As Django's own handler: a client that goes away ends the stream.
        tasks = [
            asyncio.create_task(self.listen_for_disconnect(receive)),
            asyncio.create_task(self.respond(request, match, send, body_file)),
        ]
        del request  # held by the task until the view has answered, and no longer
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                if not task.done():
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
            body_file.close()
        for task in tasks:
            if not task.cancelled() and not isinstance(task.exception(), RequestAborted | None):
                raise task.exception()

    async def respond(self, request: HttpRequest, match: ResolverMatch, send, body_file) -> None:
        response = await self.response_of(request, match)
        body_file.close()
        if not isinstance(response, DirectStream):
            with contextlib.suppress(asyncio.CancelledError):  # the client went away meanwhile
                await self.send_response(response, send)
            return
        # A stream may run for hours: what it holds meanwhile is its body alone, not the request,
        # the response or its headers; its objects are kept out of the full collections (config.collector).
        del request
        tenure.opened()
        start = {"type": "http.response.start", "status": response.status_code, "headers": header_list(response)}
        chunks = response.chunks
        del response
        with contextlib.suppress(asyncio.CancelledError):
            await send(start)
            del start
            async with contextlib.aclosing(chunks):
                async for chunk in chunks:
                    await send({"type": "http.response.body", "body": chunk, "more_body": True})
                    del chunk  # not kept while the stream waits for its next event
            await send({"type": "http.response.body"})

    async def response_of(self, request: HttpRequest, match: ResolverMatch) -> HttpResponseBase:
        if not gate.open:
            outage_log.count(f"{request.method} {request.path}")
            return self.headers.add(request, outage_response(request, is_api=True))
        language = translation.get_language_from_request(request)
        with translation.override(language):
            try:
                response = self.csrf.refusal(request, match) or await match.func(request, *match.args, **match.kwargs)
            except Exception as exc:
                response = self.failed(request, exc)
            request.LANGUAGE_CODE = language
            response.headers.setdefault("Content-Language", language)
            return self.headers.add(request, response)

    @staticmethod
    def failed(request: HttpRequest, exc: Exception) -> HttpResponseBase:
        """What the middleware would answer for a view that raised: 503 while the database is away,
        else Django's answer for the exception (logged as Django logs it) in the API's error shape."""
        if database_unavailable(exc):
            gate.failed(exc)
            outage_log.note(exc, f"{request.method} {request.path}")
            return outage_response(request, is_api=True)
        # Django's answer, logged as Django logs it; its page swapped for the error shape.
        status = response_for_exception(request, exc).status_code
        return json_for_status(status)


class DirectViews:
    """The ASGI application in front of the site's: a request to a view marked served_directly is
    answered by DirectHandler, every other goes on to `app`."""

    def __init__(self, app) -> None:
        self.app = app
        self.handler: DirectHandler | None = None
        self.routes: dict[str, ResolverMatch | None] = {}

    async def __call__(self, scope, receive, send) -> None:
        match = self.direct_match(scope) if scope["type"] == "http" else None
        if match is None:
            await self.app(scope, receive, send)
            return
        if self.handler is None:
            self.handler = DirectHandler()
        await self.handler.serve(scope, receive, send, match)

    def direct_match(self, scope) -> ResolverMatch | None:
        path = scope["path"].removeprefix(scope.get("root_path", ""))
        if path in self.routes:
            return self.routes[path]
        try:
            match = resolve(path)
        except Resolver404:
            match = None
        found = match if match is not None and is_served_directly(match.func) else None
        if len(self.routes) < 10_000:  # paths name games: keep a bounded few
            self.routes[path] = found
        return found

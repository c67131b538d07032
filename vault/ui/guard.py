"""What keeps the page to its owner: loopback or a token, CSRF on every form, strict headers.

- Without a token the page answers only requests whose Host is a loopback name (Starlette's
  TrustedHostMiddleware), so a web page elsewhere cannot reach it through DNS rebinding.
- With a token (`vault ui --token`, needed for any other address) the token is accepted once in
  the URL (`?token=...`), exchanged for an HttpOnly, SameSite=Strict cookie, and the browser is
  sent to the same address without it (as Jupyter does); every other request needs the cookie.
- Every form carries a CSRF token equal to an HttpOnly, SameSite=Strict cookie of the session
  (double submit, compared in constant time by `form_is_ours`, which every POST handler calls
  first); a POST whose Origin is another site, or without the cookie, is refused here already.
- Every response carries a Content-Security-Policy that allows nothing from the network and no
  script at all, and headers that keep the page out of frames and referrers.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Awaitable, Callable
from urllib.parse import urlencode, urlsplit

from starlette.datastructures import FormData
from starlette.middleware.base import BaseHTTPMiddleware
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response

TOKEN_COOKIE = "vault_ui_token"
CSRF_COOKIE = "vault_ui_csrf"
CSRF_FIELD = "csrf"
LOOPBACK_NAMES = ["127.0.0.1", "localhost", "::1", "[::1]"]
HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; "
        "frame-ancestors 'none'; base-uri 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}

Next = Callable[[Request], Awaitable[Response]]


class Guard(BaseHTTPMiddleware):
    """Token (when one is set), CSRF cookie and the security headers, on every request."""

    def __init__(self, app: object, token: str | None) -> None:
        super().__init__(app)  # type: ignore[arg-type]
        self.token = token

    async def dispatch(self, request: Request, call_next: Next) -> Response:
        if self.token is not None:
            given = request.query_params.get("token")
            if given is not None and _same(given, self.token):
                return _without_token(request, self.token)
            if not _same(request.cookies.get(TOKEN_COOKIE, ""), self.token):
                return _secured(
                    PlainTextResponse(
                        "This page needs its token: open the address `vault ui` printed.",
                        status_code=401,
                    )
                )
        csrf = request.cookies.get(CSRF_COOKIE)
        fresh = csrf is None or len(csrf) < 32
        request.state.csrf = secrets.token_urlsafe(32) if fresh else csrf
        if request.method == "POST" and not _same_site(request):
            response: Response = refused()
        else:
            response = await call_next(request)
        if fresh:
            _cookie(response, CSRF_COOKIE, request.state.csrf)
        return _secured(response)


def refused() -> Response:
    return PlainTextResponse(
        "This form is out of date or came from another site; nothing was changed. "
        "Reload the page and try again.",
        status_code=403,
    )


def form_is_ours(request: Request, form: FormData) -> bool:
    """The form's CSRF field equals the session's cookie (every POST handler asks this before
    it reads anything else of the form)."""
    cookie = request.cookies.get(CSRF_COOKIE)
    given = form.get(CSRF_FIELD)
    return bool(cookie) and isinstance(given, str) and _same(given, cookie)  # type: ignore[arg-type]


def _same_site(request: Request) -> bool:
    """No POST from another origin, and none without the session's CSRF cookie."""
    origin = request.headers.get("origin")
    if origin not in (None, "null") and urlsplit(origin).netloc != request.headers.get("host"):
        return False
    return bool(request.cookies.get(CSRF_COOKIE))


def _without_token(request: Request, token: str) -> Response:
    rest = [(k, v) for k, v in request.query_params.multi_items() if k != "token"]
    target = request.url.path + (f"?{urlencode(rest)}" if rest else "")
    response = RedirectResponse(target, status_code=303)
    _cookie(response, TOKEN_COOKIE, token)
    return _secured(response)


def _cookie(response: Response, name: str, value: str) -> None:
    response.set_cookie(name, value, httponly=True, samesite="strict", path="/")


def _secured(response: Response) -> Response:
    response.headers.update(HEADERS)
    return response


def _same(given: str, expected: str) -> bool:
    return hmac.compare_digest(given.encode(), expected.encode())

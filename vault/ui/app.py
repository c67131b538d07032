"""The memory page as a Starlette application: plain HTML forms, one library call per action.

Every POST answers with a redirect to the page it came from (so reloading never repeats it) and
a fixed confirmation; bad input is shown on the page, with status 400, and nothing changed (the
library wrote nothing: its validation and privacy gate run before its one transaction).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.datastructures import FormData
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from vault.api import Vault
from vault.domain.errors import AthleteNotFound, PrivacyRefused, VaultError
from vault.ui import pages
from vault.ui.guard import CSRF_FIELD, LOOPBACK_NAMES, Guard, form_is_ours, refused

HERE = Path(__file__).parent
# what a redirect may say: fixed sentences chosen by code, never text taken from the URL
DONE = {
    "edited": "Saved. The old text is kept in the item's history.",
    "wrong": "Removed as wrong. It will not be learned again from the same words.",
    "deleted": "Deleted. It will not be learned again from the same words.",
    "forgotten": "Forgotten: everything matching those words is erased.",
    "athlete-deleted": "The athlete and everything stored about them are erased.",
}
KINDS = ("fact", "pattern", "note")


class MemoryPage:
    """The routes, bound to one open vault and what this server may show."""

    def __init__(self, vault: Vault, served: tuple[str, ...] | None, read_only: bool) -> None:
        self.vault = vault
        self.served = served
        self.read_only = read_only
        self.templates = Environment(
            loader=FileSystemLoader(HERE / "templates"),
            autoescape=select_autoescape(default=True, default_for_string=True),
        )
        self.templates.globals.update(csrf_field=CSRF_FIELD, kinds=KINDS)

    # -- pages
    async def home(self, request: Request) -> Response:
        query = request.query_params.get("q", "")
        found = pages.athletes(self.vault, self.served, query)
        done = DONE.get(request.query_params.get("done", ""))
        return self._render(request, "home.html", athletes=found, query=query, done=done)

    async def athlete(self, request: Request) -> Response:
        athlete = self._athlete(request.query_params.get("id"))
        if isinstance(athlete, Response):
            return athlete
        return self._athlete_page(request, athlete)

    async def edit_form(self, request: Request) -> Response:
        athlete = self._athlete(request.query_params.get("id"))
        if isinstance(athlete, Response):
            return athlete
        kind, number = (
            request.query_params.get("kind", ""),
            _number(request.query_params.get("item")),
        )
        item = None if number is None else pages.find_item(self.vault, athlete, kind, number)
        if item is None:
            return self._missing(request, "That item is not in this athlete's memory any more.")
        return self._render(request, "edit.html", athlete_id=athlete, item=item, error=None)

    async def confirm_delete(self, request: Request) -> Response:
        athlete = self._athlete(request.query_params.get("id"))
        if isinstance(athlete, Response):
            return athlete
        return self._render(request, "delete.html", athlete_id=athlete, error=None)

    async def export(self, request: Request) -> Response:
        athlete = self._athlete(request.query_params.get("id"))
        if isinstance(athlete, Response):
            return athlete
        document = self.vault.transfer.export(athlete)
        name = re.sub(r"[^A-Za-z0-9_.-]+", "_", athlete)[:60] or "athlete"
        return Response(
            json.dumps(document, indent=2, ensure_ascii=False, default=str),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="vault-export-{name}.json"'},
        )

    # -- actions (POST)
    async def act(self, request: Request) -> Response:
        form = await request.form()
        if not form_is_ours(request, form):
            return refused()
        athlete = self._athlete(_text(form, "athlete"))
        if isinstance(athlete, Response):
            return athlete
        if self.read_only:
            return self._athlete_page(
                request,
                athlete,
                error="This page was opened read-only: nothing can change.",
                status=403,
            )
        action = request.path_params["action"]
        try:
            return self._apply(action, athlete, form)
        except AthleteNotFound:
            return self._missing(request, "No memory is stored for that athlete.")
        except PrivacyRefused as error:
            message = error.plain
        except VaultError as error:
            message = str(error)
        if action == "edit":
            return self._edit_again(request, athlete, form, message)
        if action == "delete-athlete":
            return self._render(
                request, "delete.html", athlete_id=athlete, error=message, status=400
            )
        return self._athlete_page(request, athlete, error=message, status=400)

    def _apply(self, action: str, athlete: str, form: FormData) -> Response:
        if action == "delete-athlete":
            if _text(form, "confirm") != athlete:
                raise _Refused("Type the athlete's id exactly to confirm; nothing was deleted.")
            self.vault.delete_athlete(athlete)
            return RedirectResponse("/?" + urlencode({"done": "athlete-deleted"}), status_code=303)
        if action == "forget":
            self.vault.forget(athlete, _text(form, "words"))
            return _back(athlete, "forgotten")
        kind, number = _text(form, "kind"), _number(_text(form, "item"))
        if number is None:
            raise _Refused("That item id is not a number; nothing was changed.")
        if action == "edit":
            self.vault.items.edit(athlete, kind, number, _text(form, "text"))
            return _back(athlete, "edited")
        if action == "wrong":
            self.vault.items.reject(athlete, kind, number)
            return _back(athlete, "wrong")
        if action == "delete":
            self.vault.items.delete(athlete, kind, number)
            return _back(athlete, "deleted")
        raise _Refused(f"Unknown action {action!r}; nothing was changed.")

    # -- helpers
    def _athlete(self, athlete_id: str | None) -> str | Response:
        if not athlete_id or (self.served is not None and athlete_id not in self.served):
            return self._missing(None, "That athlete is not shown on this page.")
        return athlete_id

    def _athlete_page(
        self, request: Request, athlete: str, *, error: str | None = None, status: int = 200
    ) -> Response:
        try:
            if not self.read_only and self.vault.admin.engine_writes_waiting():
                self.vault.admin.sync_engine()  # what the coaching app wrote shows at once
            page = pages.athlete_page(
                self.vault,
                athlete,
                page=_number(request.query_params.get("page")) or 1,
                query=request.query_params.get("q", ""),
            )
        except VaultError as failure:
            return self._missing(request, str(failure))
        done = DONE.get(request.query_params.get("done", "")) if error is None else None
        return self._render(request, "athlete.html", p=page, error=error, done=done, status=status)

    def _edit_again(self, request: Request, athlete: str, form: FormData, message: str) -> Response:
        number = _number(_text(form, "item"))
        item = (
            None
            if number is None
            else pages.find_item(self.vault, athlete, _text(form, "kind"), number)
        )
        if item is None:
            return self._athlete_page(request, athlete, error=message, status=400)
        return self._render(
            request,
            "edit.html",
            athlete_id=athlete,
            item=item,
            error=message,
            typed=_text(form, "text"),
            status=400,
        )

    def _missing(self, request: Request | None, message: str) -> Response:
        body = self.templates.get_template("missing.html").render(
            message=message, read_only=self.read_only
        )
        return HTMLResponse(body, status_code=404)

    def _render(
        self, request: Request, name: str, *, status: int = 200, **context: Any
    ) -> Response:
        body = self.templates.get_template(name).render(
            csrf=request.state.csrf, read_only=self.read_only, **context
        )
        return HTMLResponse(body, status_code=status)


class _Refused(VaultError):
    """A form the page itself refuses (no library call was made)."""


def build_app(
    vault: Vault,
    *,
    served: tuple[str, ...] | None = None,
    read_only: bool = False,
    token: str | None = None,
) -> Starlette:
    """The memory page for `vault`; `served` limits it to those athletes; `token` is required
    for any address other than loopback (vault.ui.guard)."""
    page = MemoryPage(vault, served, read_only)
    hosts = ["*"] if token is not None else LOOPBACK_NAMES
    return Starlette(
        routes=[
            Route("/", page.home),
            Route("/athlete", page.athlete),
            Route("/athlete/edit", page.edit_form),
            Route("/athlete/delete", page.confirm_delete),
            Route("/athlete/export", page.export),
            Route("/act/{action}", page.act, methods=["POST"]),
            Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
        ],
        middleware=[
            Middleware(TrustedHostMiddleware, allowed_hosts=hosts),
            Middleware(Guard, token=token),
        ],
    )


def _back(athlete: str, done: str) -> Response:
    return RedirectResponse("/athlete?" + urlencode({"id": athlete, "done": done}), status_code=303)


def _text(form: FormData, name: str) -> str:
    value = form.get(name)
    return value if isinstance(value, str) else ""


def _number(value: str | None) -> int | None:
    if value is None or not value.isascii() or not value.isdigit() or len(value) > 18:
        return None
    return int(value)

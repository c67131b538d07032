"""Run the memory page with uvicorn: the address checks and the one line saying where it is."""

from __future__ import annotations

import ipaddress
import secrets

import uvicorn

from vault.api import Vault
from vault.ui.app import build_app


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def new_token() -> str:
    return secrets.token_urlsafe(32)


def page_url(host: str, port: int, token: str | None) -> str:
    shown = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return f"http://{shown}:{port}/" + (f"?token={token}" if token else "")


def serve(
    vault: Vault,
    *,
    host: str,
    port: int,
    served: tuple[str, ...] | None,
    read_only: bool,
    token: str | None,
    announce: object = print,
) -> None:
    app = build_app(vault, served=served, read_only=read_only, token=token)
    config = uvicorn.Config(app, host=host.strip("[]"), port=port, log_level="warning")
    server = uvicorn.Server(config)
    announce(f"vault ui: open {page_url(host, port, token)}  (Ctrl-C stops it)")  # type: ignore[operator]
    server.run()

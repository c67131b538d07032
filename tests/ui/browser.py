"""A real browser for the memory page's tests: Debian's headless Chromium driven by Selenium.

The driver is the one Debian packages (`chromium-driver`, at /usr/bin/chromedriver): its path is
given, so Selenium never downloads one. Without a browser the tests skip with one line; with
VAULT_REQUIRE_BROWSER=1 (set by .ci/run) they fail instead. The page itself is served by uvicorn
on a free loopback port in a thread of the test process.
"""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from vault import Vault

DRIVER = "/usr/bin/chromedriver"
BROWSERS = ("chromium", "chromium-browser")
REQUIRE_ENV = "VAULT_REQUIRE_BROWSER"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--window-size=1000,1400",
)


def missing() -> str | None:
    """Why no browser test can run here, or None."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    if not any(shutil.which(name) for name in BROWSERS):
        return "no Chromium (apt-get install chromium chromium-driver)"
    if not Path(DRIVER).exists():
        return f"no {DRIVER} (apt-get install chromium-driver)"
    return None


def require_browser() -> None:
    reason = missing()
    if reason is None:
        return
    if os.environ.get(REQUIRE_ENV) == "1":
        pytest.fail(f"{REQUIRE_ENV}=1 but the browser tests cannot run: {reason}")
    pytest.skip(f"browser tests: {reason}")


@contextmanager
def served(vault: Vault, **options: Any) -> Iterator[str]:
    """The memory page for `vault`, served on a free loopback port; yields its base URL."""
    import uvicorn

    from vault.ui.app import build_app

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(
        build_app(vault, **options), host="127.0.0.1", port=port, log_level="warning"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the memory page did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@contextmanager
def chromium(downloads: Path, *, width: int = 1000) -> Iterator[Any]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--window-size={width},1400")
    profile = tempfile.mkdtemp(prefix="vault-ui-chromium-")
    options.add_argument(f"--user-data-dir={profile}")
    options.binary_location = next(shutil.which(n) for n in BROWSERS if shutil.which(n))  # type: ignore[misc]
    options.add_experimental_option(
        "prefs",
        {
            "download.default_directory": str(downloads),
            "download.prompt_for_download": False,
        },
    )
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    try:
        driver.execute_cdp_cmd(
            "Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)}
        )
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def xpath_literal(text: str) -> str:
    """`text` as an XPath string literal, whatever quotes it holds."""
    if "'" not in text:
        return f"'{text}'"
    if '"' not in text:
        return f'"{text}"'
    parts = text.split("'")
    return "concat(" + ', "\'", '.join(f"'{p}'" for p in parts) + ")"


def by_name(driver: Any, name: str) -> Any:
    """The one control whose accessible name is `name` (as a screen reader would find it)."""
    from selenium.webdriver.common.by import By

    found = [
        e
        for e in driver.find_elements(By.XPATH, f"//*[@aria-label={xpath_literal(name)}]")
        if e.accessible_name == name
    ]
    assert len(found) == 1, f"{len(found)} controls named {name!r}"
    return found[0]

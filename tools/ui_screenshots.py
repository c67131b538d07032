"""Screenshots of the memory page for docs/ui.md, taken with Selenium in headless Chromium.

    .venv/bin/python tools/ui_screenshots.py docs/

Builds a small vault in a temporary directory (one athlete learned from a few of their own
messages, a pattern, a note, some sessions), serves the page and saves ui-athlete.png (desktop),
ui-phone.png (a phone's width) and ui-edit.png (after an edit: the history shows the old text).
"""

from __future__ import annotations

import sys
import tempfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from selenium.webdriver.common.by import By  # noqa: E402

from tests.ui.browser import by_name, chromium, served  # noqa: E402
from vault import NoteIn, PatternIn, open_vault  # noqa: E402

MESSAGES = [
    "I have a recurring knee issue and I usually run in the morning",
    "I'm training for a half marathon in April",
    "I love trail running on weekends",
]


def main(out: Path) -> None:
    with tempfile.TemporaryDirectory() as work:
        now = datetime.now(timezone.utc)
        vault = open_vault(Path(work) / "vault.db", upgrade=True)
        for i, message in enumerate(MESSAGES):
            vault.ingest_message("ana", message, now=now - timedelta(days=10 - i))
        vault.merge(
            "ana",
            [
                PatternIn(text="skips Monday sessions after long weekends"),
                NoteIn(text="responds well to blunt feedback"),
            ],
            now=now,
        )
        vault.episodes.add(
            "ana",
            [
                {
                    "text": f"easy run {5 + i % 4} km, felt fine",
                    "type": "session",
                    "at": now - timedelta(days=i),
                }
                for i in range(1, 30)
            ],
            now=now,
        )
        with served(vault) as base, chromium(Path(work)) as driver:
            driver.get(base + "/athlete?id=ana")
            driver.save_screenshot(str(out / "ui-athlete.png"))
            by_name(driver, "Edit: has recurring knee issue").click()
            field = driver.find_element(By.ID, "text")
            field.clear()
            field.send_keys("had a knee issue last spring, fine now")
            driver.find_element(By.XPATH, "//button[text()='Save']").click()
            driver.find_element(By.XPATH, "//summary[starts-with(., 'History')]").click()
            driver.save_screenshot(str(out / "ui-edit.png"))
        with served(vault) as base, chromium(Path(work), width=390) as driver:
            driver.set_window_size(390, 844)
            driver.get(base + "/athlete?id=ana")
            driver.save_screenshot(str(out / "ui-phone.png"))
        vault.close()


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs"))

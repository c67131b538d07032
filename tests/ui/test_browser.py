"""The memory page clicked through in headless Chromium: view, edit, wrong, delete, forget,
export and delete the athlete, checking the vault file after each step."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from tests.ui.browser import by_name, chromium, require_browser, served
from tests.ui.conftest import SCRIPT
from vault import Vault, open_vault

require_browser()

from selenium.webdriver.common.by import By  # noqa: E402


def facts(path: Path) -> list[str]:
    with open_vault(path, read_only=True) as vault:
        return [f.text for f in vault.facts("ana")]


def submit(driver, control) -> None:
    """Click and wait for the next page's confirmation or error (a loaded machine is slow)."""
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    control.click()
    WebDriverWait(driver, 30).until(_replaced(control))
    WebDriverWait(driver, 30).until(
        expected_conditions.presence_of_element_located(
            (By.CSS_SELECTOR, "[role=status], [role=alert]")
        )
    )


def _replaced(control):
    """The clicked control's page has been replaced. Chromium reports a node of a page being
    torn down either as stale or, mid-navigation, as an inspector error ("Node with given id
    does not belong to the document"); both mean the old page is gone."""
    from selenium.common.exceptions import StaleElementReferenceException, WebDriverException

    def gone(_driver) -> bool:
        try:
            control.is_enabled()
        except StaleElementReferenceException:
            return True
        except WebDriverException as error:
            return "does not belong to the document" in str(error)
        return False

    return gone


def test_click_through_every_action(page_vault: Vault, page_file: Path, tmp_path: Path) -> None:
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    with served(page_vault) as base, chromium(downloads) as driver:
        # view: the athletes, then what the coach sees, exactly as `vault prompt` prints it
        driver.get(base + "/")
        driver.find_element(By.LINK_TEXT, "ana").click()
        region = driver.find_element(By.XPATH, "//section[@aria-labelledby='h-coach']")
        assert region.accessible_name == "What the coach sees"
        assert region.find_element(By.TAG_NAME, "pre").text == page_vault.memory_block(
            "ana"
        ).text.rstrip("\n")
        assert driver.find_elements(By.TAG_NAME, "script") == []
        assert SCRIPT in driver.find_element(By.TAG_NAME, "main").text  # markup shown as text

        # edit: the old text is archived as edited and shown in the new item's history
        by_name(driver, "Edit: has recurring knee issue").click()
        field = driver.find_element(By.ID, "text")
        field.clear()
        field.send_keys("had a knee issue last spring")
        submit(driver, driver.find_element(By.XPATH, "//button[text()='Save']"))
        assert "had a knee issue last spring" in facts(page_file)
        assert "has recurring knee issue" not in facts(page_file)
        with open_vault(page_file, read_only=True) as vault:
            assert [(a.original_text, a.reason.value) for a in vault.archive("ana")] == [
                ("has recurring knee issue", "edited")
            ]
        driver.find_element(By.XPATH, "//summary[starts-with(., 'History')]").click()
        assert "has recurring knee issue" in driver.find_element(By.CSS_SELECTOR, "ul.history").text

        # this is wrong: gone, and recorded as wrong (a keyed hash)
        submit(driver, by_name(driver, "Wrong: prefers morning sessions"))
        assert "prefers morning sessions" not in facts(page_file)
        with (
            open_vault(page_file, read_only=True) as vault,
            vault.admin.sql(
                "SELECT reason FROM erasures WHERE item_key IS NOT NULL ORDER BY id"
            ) as (_, rows),
        ):
            assert [r[0] for r in rows] == ["edited", "wrong"]

        # delete one item (the one holding markup)
        submit(driver, by_name(driver, f"Delete: {SCRIPT}"))
        assert SCRIPT not in facts(page_file)

        # forget everything matching words
        driver.find_element(By.ID, "words").send_keys("race")
        submit(driver, driver.find_element(By.XPATH, "//button[text()='Forget']"))
        with open_vault(page_file, read_only=True) as vault:
            newest = vault.episodes.newest("ana", limit=100)
            assert len(newest) == 25 and not any("race" in e.text for e in newest)

        # export: the athlete's document, downloaded
        driver.find_element(By.LINK_TEXT, "Export (download)").click()
        exported = downloads / "vault-export-ana.json"
        deadline = time.monotonic() + 20
        while not exported.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        document = json.loads(exported.read_text(encoding="utf-8"))
        assert document["format"] == "vault-export"
        assert sorted(f["text"] for f in document["facts"]) == sorted(facts(page_file))

        # delete the athlete, confirmed by typing the id
        driver.find_element(By.LINK_TEXT, "Delete this athlete…").click()
        driver.find_element(By.ID, "confirm").send_keys("ana")
        submit(driver, driver.find_element(By.XPATH, "//button[text()='Delete the athlete']"))
        with open_vault(page_file, read_only=True) as vault:
            assert vault.summary("ana") is None and vault.summary("bob") is not None
        assert "ana" not in [a.text for a in driver.find_elements(By.CSS_SELECTOR, "ul.athletes a")]


def test_a_refused_edit_shows_why_and_changes_nothing(
    page_vault: Vault, page_file: Path, tmp_path: Path
) -> None:
    before = facts(page_file)
    with served(page_vault) as base, chromium(tmp_path) as driver:
        driver.get(base + "/athlete?id=ana")
        by_name(driver, "Edit: primary sport: running").click()
        field = driver.find_element(By.ID, "text")
        field.clear()
        field.send_keys("call me on +1 555 123 4567")
        submit(driver, driver.find_element(By.XPATH, "//button[text()='Save']"))
        alert = driver.find_element(By.CSS_SELECTOR, "[role=alert]").text
        assert "personal data" in alert and "nothing was written" in alert
    assert facts(page_file) == before


@pytest.mark.parametrize("width", [390])
def test_readable_on_a_phone(page_vault: Vault, tmp_path: Path, width: int) -> None:
    with served(page_vault) as base, chromium(tmp_path, width=width) as driver:
        driver.get(base + "/athlete?id=ana")
        scroll = driver.execute_script("return document.documentElement.scrollWidth")
        inner = driver.execute_script("return window.innerWidth")
        assert scroll <= inner  # nothing wider than the screen: no sideways scrolling

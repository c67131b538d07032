"""The memory page over HTTP (Starlette's test client): what it shows, what it refuses, and that
every action goes through the library and changes nothing when refused."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from tests.ui.conftest import SCRIPT
from vault import Vault, open_vault
from vault.cli import main
from vault.ui.app import build_app

LOCAL = "http://127.0.0.1:8765"


def client(vault: Vault, base: str = LOCAL, **options) -> TestClient:
    return TestClient(build_app(vault, **options), base_url=base)


def csrf_of(html: str) -> str:
    match = re.search(r'name="csrf" value="([^"]+)"', html)
    assert match is not None
    return match.group(1)


def item_id(vault: Vault, text: str) -> int:
    return next(f.id for f in vault.facts("ana") if f.text == text)


def stored(vault: Vault) -> tuple[object, ...]:
    return (vault.memory("ana").model_dump(), vault.archive("ana"), vault.summaries())


def test_the_athlete_page_shows_what_the_coach_sees_exactly(page_vault: Vault) -> None:
    html = client(page_vault).get("/athlete?id=ana").text
    block = page_vault.memory_block("ana")
    region = html.split('id="h-coach">What the coach sees</h2>')[1].split("</section>")[0]
    shown = re.search(r"<pre>(.*?)</pre>", region, re.S)
    assert shown is not None
    expected = block.text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    assert shown.group(1) == expected.replace("'", "&#39;").replace('"', "&#34;")
    assert f"{block.tokens} of {block.budget} tokens" in region


def test_a_fact_holding_markup_is_shown_as_text(page_vault: Vault) -> None:
    html = client(page_vault).get("/athlete?id=ana").text
    assert "<script" not in html
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; likes hill repeats" in html
    assert f'aria-label="Delete: {SCRIPT}"' not in html  # escaped inside attributes too


def test_every_response_carries_a_strict_policy_and_no_network_asset(page_vault: Vault) -> None:
    web = client(page_vault)
    for path in ("/", "/athlete?id=ana", "/static/style.css", "/athlete?id=nobody"):
        response = web.get(path)
        policy = response.headers["content-security-policy"]
        assert "default-src 'none'" in policy and "script-src" not in policy
        assert response.headers["x-frame-options"] == "DENY"
    html = web.get("/athlete?id=ana").text
    assert not re.search(r'(src|href)="(https?:)?//', html)


def test_a_form_without_the_sessions_csrf_token_changes_nothing(page_vault: Vault) -> None:
    web = client(page_vault)
    web.get("/")  # the session's cookie
    before = stored(page_vault)
    fact = item_id(page_vault, "has recurring knee issue")
    form = {"athlete": "ana", "kind": "fact", "item": str(fact)}
    assert web.post("/act/delete", data={**form, "csrf": "x" * 43}).status_code == 403
    assert web.post("/act/delete", data=form).status_code == 403
    other = client(page_vault)  # another site's page posting with the victim's cookie
    other.cookies = web.cookies
    response = other.post(
        "/act/delete",
        data={**form, "csrf": csrf_of(web.get("/athlete?id=ana").text)},
        headers={"origin": "http://evil.example"},
    )
    assert response.status_code == 403
    assert stored(page_vault) == before


def test_only_loopback_host_names_are_answered_without_a_token(page_vault: Vault) -> None:
    web = client(page_vault)
    assert web.get("/", headers={"host": "attacker.example:8765"}).status_code == 400
    assert web.get("/", headers={"host": "localhost:8765"}).status_code == 200


def test_a_token_is_taken_once_from_the_url_then_kept_in_an_http_only_cookie(
    page_vault: Vault,
) -> None:
    token = "t" * 43
    web = client(page_vault, token=token, base="http://192.0.2.7:8765")
    assert web.get("/").status_code == 401
    first = web.get(f"/athlete?id=ana&token={token}", follow_redirects=False)
    assert first.status_code == 303 and first.headers["location"] == "/athlete?id=ana"
    assert "HttpOnly" in first.headers["set-cookie"] and token not in first.headers["location"]
    assert web.get("/athlete?id=ana").status_code == 200
    assert client(page_vault, token=token).get(f"/?token={'u' * 43}").status_code == 401


def test_bad_input_shows_a_clear_message_and_changes_nothing(page_vault: Vault) -> None:
    web = client(page_vault)
    csrf = csrf_of(web.get("/athlete?id=ana").text)
    fact = item_id(page_vault, "has recurring knee issue")
    before = stored(page_vault)
    cases = [
        ("edit", {"kind": "fact", "item": str(fact), "text": "mail me at ana@example.com"}),
        ("edit", {"kind": "fact", "item": str(fact), "text": ""}),
        ("wrong", {"kind": "fact", "item": "999999"}),
        ("delete", {"kind": "habit", "item": str(fact)}),
        ("forget", {"words": "   "}),
        ("delete-athlete", {"confirm": "an"}),
    ]
    for action, fields in cases:
        response = web.post(f"/act/{action}", data={"csrf": csrf, "athlete": "ana", **fields})
        assert response.status_code == 400, action
        assert re.search(r'role="alert">[^<]{10,}<', response.text), action
        assert stored(page_vault) == before, action


def test_each_action_goes_through_the_library(page_vault: Vault, page_file: Path) -> None:
    web = client(page_vault)
    csrf = csrf_of(web.get("/athlete?id=ana").text)
    knee = item_id(page_vault, "has recurring knee issue")
    done = web.post(
        "/act/edit",
        data={
            "csrf": csrf,
            "athlete": "ana",
            "kind": "fact",
            "item": str(knee),
            "text": "had a knee issue",
        },
        follow_redirects=False,
    )
    assert done.status_code == 303 and done.headers["location"] == "/athlete?id=ana&done=edited"
    assert "Saved." in web.get(done.headers["location"]).text
    [edited] = page_vault.archive("ana")
    assert (edited.original_text, edited.reason.value) == ("has recurring knee issue", "edited")
    assert page_vault.episodes.count("ana") == 26
    web.post("/act/forget", data={"csrf": csrf, "athlete": "ana", "words": "race"})
    assert page_vault.episodes.count("ana") == 25
    export = web.get("/athlete/export?id=ana")
    assert export.headers["content-disposition"] == 'attachment; filename="vault-export-ana.json"'
    document = export.json()
    assert document["format"] == "vault-export" and "had a knee issue" in str(document["facts"])
    web.post("/act/delete-athlete", data={"csrf": csrf, "athlete": "ana", "confirm": "ana"})
    assert page_vault.summary("ana") is None and page_vault.summary("bob") is not None


def test_read_only_shows_and_refuses_every_change(page_file: Path) -> None:
    with open_vault(page_file, read_only=True) as vault:
        web = client(vault, read_only=True)
        html = web.get("/athlete?id=ana").text
        assert "read-only" in html and 'action="/act/' not in html
        csrf = csrf_of(web.get("/athlete/edit?id=ana&kind=fact&item=1").text)
        response = web.post(
            "/act/wrong", data={"csrf": csrf, "athlete": "ana", "kind": "fact", "item": "1"}
        )
        assert response.status_code == 403
        assert len(vault.facts("ana")) == 4


def test_served_athletes_only(page_vault: Vault) -> None:
    web = client(page_vault, served=("ana",))
    home = web.get("/").text
    assert "ana" in home and "bob" not in home
    assert web.get("/athlete?id=bob").status_code == 404
    assert web.get("/athlete/export?id=bob").status_code == 404
    assert "bob" not in web.get("/?q=b").text


def test_athletes_are_searchable(page_vault: Vault) -> None:
    html = client(page_vault).get("/?q=BO").text
    assert "/athlete?id=bob" in html and "/athlete?id=ana" not in html


def test_episodes_are_paged_newest_first_and_recalled(page_vault: Vault) -> None:
    web = client(page_vault)
    first = web.get("/athlete?id=ana").text
    assert "Page 1 of 2" in first
    second = web.get("/athlete?id=ana&page=2").text
    assert "Page 2 of 2" in second
    recalled = web.get("/athlete?id=ana&q=race").text.split("Recalled for")[1]
    assert "10k race in 41:30" in recalled.split("Newest first")[0]


def test_without_the_extra_vault_ui_says_which_one_in_one_line(
    monkeypatch: pytest.MonkeyPatch, page_file: Path
) -> None:
    monkeypatch.setattr("vault.cli.ui_commands.stack_available", lambda: False)
    result = CliRunner().invoke(main, ["--db", str(page_file), "ui"])
    assert result.exit_code == 1
    assert (
        result.output.strip().splitlines()
        == ["error: the memory page needs its optional extra: pip install 'vault[ui]'"]
        or result.output.count("\n") == 1
        and "vault[ui]" in result.output
    )


def test_a_non_loopback_address_needs_a_token(page_file: Path) -> None:
    result = CliRunner().invoke(main, ["--db", str(page_file), "ui", "--host", "0.0.0.0"])
    assert result.exit_code == 2 and "--token" in result.output


def test_read_only_shows_the_engines_waiting_writes_as_waiting(page_file: Path) -> None:
    from tests.engine.engine_statements import write_memory

    marker = {"fact": "swims on sundays", "source": "conversation", "confidence": 0.9}
    document = {"key_facts": [{**marker, "learned_at": "2026-11-20T08:00:00Z"}]}
    write_memory(page_file, "ana", {**document, "patterns": [], "coaching_notes": []})
    with open_vault(page_file, read_only=True) as vault:
        html = client(vault, read_only=True).get("/athlete?id=ana").text
        assert "1 write by the coaching app is waiting (read-only: not applied" in html
        assert "swims on sundays" not in html
        assert vault.admin.engine_writes_waiting() == 1


def test_a_writable_page_applies_the_engines_waiting_writes_first(
    page_vault: Vault, page_file: Path
) -> None:
    from tests.engine.engine_statements import write_memory

    document = page_vault.contract("ana")
    document["key_facts"].append(
        {
            "fact": "swims on sundays",
            "source": "conversation",
            "confidence": 0.9,
            "learned_at": "2026-11-20T08:00:00Z",
        }
    )
    write_memory(page_file, "ana", document)
    html = client(page_vault).get("/athlete?id=ana").text
    assert "swims on sundays" in html and "waiting" not in html

"""API tests of the web display/admin on a real Controller over a real SQLite log (no browser)."""

from __future__ import annotations

import json
import random

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from controller.core import Controller
from controller.inputs import Admin, ShoeCard
from controller.log import GameLog
from engine import record
from table_ui import i18n
from table_ui.app import create_app
from table_ui.broadcast import Client
from table_ui.security import RateLimiter, hash_pin, verify_pin
from table_ui.testing import at_defence, deal_until_play, illegal_beat, play_until, step

PIN = "2468"
PIN_HASH = hash_pin(PIN)


@pytest.fixture
def client(ctl):
    with TestClient(create_app(ctl, admin_pin_hash=PIN_HASH)) as tc:
        yield tc


def login(tc: TestClient) -> str:
    r = tc.post("/api/admin/login", json={"pin": PIN})
    assert r.status_code == 200, r.text
    return r.json()["csrf"]






# -- hashing and limits --------------------------------------------------------------------------
def test_pin_hash_is_salted_and_verifies():
    a, b = hash_pin("1234"), hash_pin("1234")
    assert a != b and a.startswith("scrypt$")
    assert verify_pin("1234", a) and not verify_pin("1235", a)
    assert not verify_pin("1234", "garbage") and not verify_pin("1234", "scrypt$1$2$3$zz$00")


def test_rate_limiter_window():
    now = [0.0]
    rl = RateLimiter(limit=2, window=60, clock=lambda: now[0])
    rl.fail("a")
    rl.fail("a")
    assert rl.blocked("a") and not rl.blocked("b")
    now[0] = 61
    assert not rl.blocked("a")


def test_generated_pin_goes_to_stderr(ctl, capsys):
    create_app(ctl)
    err = capsys.readouterr().err
    assert "admin PIN: " in err
    assert len(err.split("admin PIN: ")[1].strip()) == 6


def test_catalogues_have_the_same_keys():
    ru, en = i18n.CATALOGUE["ru"], i18n.CATALOGUE["en"]
    assert set(ru) == set(en)
    for k, v in ru.items():
        if isinstance(v, dict):
            assert set(v) == set(en[k]), k


# -- public state and socket --------------------------------------------------------------------
def test_state_and_socket_follow_the_controller(ctl, client):
    rng = random.Random(1)
    deal_until_play(ctl, rng)
    r = client.get("/api/state")
    assert r.status_code == 200 and r.json()["seq"] == ctl.seq
    assert r.json()["view"]["trump"] in "CDHS"
    with client.websocket_connect("/ws", headers={"origin": "http://testserver"}) as ws:
        first = json.loads(ws.receive_text())
        assert first["type"] == "state" and first["seq"] == ctl.seq
        assert first["state"]["names"] == ["Аня", "Боря"]
        seqs = []
        for _ in range(3):
            step(ctl, rng)
        while not seqs or seqs[-1] != ctl.seq:  # changes arrive in order, the last one surely
            msg = json.loads(ws.receive_text())
            assert msg["seq"] == msg["state"]["seq"]
            seqs.append(msg["seq"])
        assert seqs == sorted(seqs) and seqs[0] > first["seq"]
        ws.send_text(json.dumps({"since": 0}))  # a reconnecting client that missed things
        again = json.loads(ws.receive_text())
        assert again["seq"] == ctl.seq
        assert "hand" not in json.dumps(again["state"]["view"]).replace("hand_sizes", "")


def test_public_state_hides_shoe_candidates(ctl, client):
    unseen = [c.code for c in ctl.game.unseen_cards()][:2]
    ctl.submit(ShoeCard(card="??", candidates=unseen))
    assert client.get("/api/state").json()["pending"]["candidates"] == []
    csrf = login(client)
    del csrf
    assert client.get("/api/admin/state").json()["pending"]["candidates"] == unseen


def test_ws_bad_origin_is_closed_1008(ctl, client):
    with pytest.raises(WebSocketDisconnect) as e, client.websocket_connect(
            "/ws", headers={"origin": "http://evil.example"}) as ws:
        ws.receive_text()
    assert e.value.code == 1008


@pytest.mark.parametrize(("payload", "code"), [
    ("x" * 5000, 1009),
    ('{"since": "yesterday"}', 1003),
    ("not json", 1003),
    ('{"action": "undo"}', 1003),
])
def test_ws_bad_messages_close_and_change_nothing(ctl, client, payload, code):
    seq = ctl.seq
    with client.websocket_connect("/ws") as ws:
        ws.receive_text()
        ws.send_text(payload)
        with pytest.raises(WebSocketDisconnect) as e:
            ws.receive_text()
    assert e.value.code == code
    assert ctl.seq == seq


def test_slow_client_queue_drops_oldest():
    c = Client(size=2)
    for i in range(5):
        c.offer(str(i))
    assert c.dropped == 3
    assert [c.queue.get_nowait(), c.queue.get_nowait()] == ["3", "4"]


# -- admin: auth ----------------------------------------------------------------------------------
def test_login_wrong_pin_then_rate_limited(ctl, client):
    for _ in range(5):
        assert client.post("/api/admin/login", json={"pin": "0000"}).status_code == 401
    r = client.post("/api/admin/login", json={"pin": PIN})
    assert r.status_code == 429 and "Retry-After" in r.headers


def test_login_sets_a_strict_httponly_cookie(client):
    r = client.post("/api/admin/login", json={"pin": PIN})
    cookie = r.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie and "max-age=" in cookie
    assert client.get("/api/admin/session").json()["csrf"] == r.json()["csrf"]


def test_admin_needs_a_session_and_csrf(ctl, client):
    seq = ctl.seq
    assert client.get("/api/admin/state").status_code == 401
    assert client.post("/api/admin/undo", json={}).status_code == 401
    csrf = login(client)
    assert client.post("/api/admin/undo", json={}).status_code == 403
    assert client.post("/api/admin/undo", json={}, headers={"X-CSRF-Token": "x" + csrf}).status_code == 403
    assert client.post("/api/admin/new_game", json={"game": "joker"}).status_code == 403
    assert ctl.seq == seq and ctl.game.name == "durak2"


@pytest.mark.parametrize(("path", "body"), [
    ("confirm", {"card": "ZZ"}),
    ("confirm", {"card": "QS", "extra": 1}),
    ("event", {"event": ""}),
    ("event", {"event": "x" * 500}),
    ("new_game", {"game": "durak2", "names": ["a"] * 20}),
    ("new_game", {"options": {}}),
    ("undo", [1, 2]),
])
def test_malformed_admin_bodies_are_422(ctl, client, path, body):
    csrf = login(client)
    seq = ctl.seq
    r = client.post(f"/api/admin/{path}", json=body, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 422, r.text
    assert ctl.seq == seq


def test_non_json_and_oversized_bodies(ctl, client):
    csrf = login(client)
    seq = ctl.seq
    h = {"X-CSRF-Token": csrf}
    r = client.post("/api/admin/event", content=b"event=1+play+QS", headers={
        **h, "content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 422
    r = client.post("/api/admin/event", content=b"{" + b" " * 40000 + b"}", headers={
        **h, "content-type": "application/json"})
    assert r.status_code == 413
    assert ctl.seq == seq


# -- admin: actions -------------------------------------------------------------------------------
def test_new_game_with_house_rules_and_errors(ctl, client):
    csrf = login(client)
    h = {"X-CSRF-Token": csrf}
    forms = client.get("/api/admin/games").json()
    durak = next(g for g in forms if g["name"] == "durak2")
    gt = next(f for f in durak["fields"] if f["name"] == "game_type")
    assert gt["kind"] == "choice" and "long3" in gt["choices"] and gt["help"]
    r = client.post("/api/admin/new_game", headers=h, json={
        "game": "durak2", "options": {"game_type": "long3", "transfer": True}, "names": ["Ира", "Олег"]})
    assert r.status_code == 200, r.text
    view = client.get("/api/state").json()["view"]
    assert view["changed_settings"] == {"game_type": "long3", "transfer": True}
    seq = ctl.seq
    r = client.post("/api/admin/new_game", headers=h, json={"game": "chess"})
    assert r.status_code == 400 and "unknown game" in r.json()["detail"]
    r = client.post("/api/admin/new_game", headers=h,
                    json={"game": "durak2", "options": {"game_type": "forever"}})
    assert r.status_code == 400 and "game_type" in r.json()["detail"]
    assert ctl.seq == seq


def test_confirm_skip_undo_event_end(ctl, client):
    csrf = login(client)
    h = {"X-CSRF-Token": csrf}
    assert client.post("/api/admin/confirm", headers=h, json={"card": "QS"}).status_code == 409
    unseen = [c.code for c in ctl.game.unseen_cards()]
    ctl.submit(ShoeCard(card="??", candidates=unseen[:3]))
    assert client.get("/api/state").json()["pending"] is not None
    r = client.post("/api/admin/confirm", headers=h, json={"card": unseen[1]})
    assert r.status_code == 200 and r.json()["events"] == [f"shoe {unseen[1]}"]
    assert client.get("/api/state").json()["pending"] is None
    ctl.submit(ShoeCard(card="??", candidates=unseen[2:4]))
    assert client.post("/api/admin/skip", headers=h, json={}).status_code == 200
    assert client.get("/api/state").json()["pending"] is None
    r = client.post("/api/admin/undo", headers=h, json={})
    assert r.status_code == 200 and r.json()["events"] == ["undo"]
    r = client.post("/api/admin/event", headers=h, json={"event": "nonsense here"})
    assert r.status_code == 409 and r.json()["detail"]
    r = client.post("/api/admin/event", headers=h, json={"event": f"shoe {unseen[5]}"})
    assert r.status_code == 200
    r = client.post("/api/admin/end_game", headers=h, json={})
    assert r.status_code == 200 and client.get("/api/state").json()["status"] == "abandoned"
    r = client.post("/api/admin/undo", headers=h, json={})
    assert r.status_code == 409  # the game was ended: a clear refusal, not a 500
    st = client.get("/api/admin/state").json()
    assert st["table"]["log_error"] is None and st["table"]["log_path"].endswith("table.sqlite")


def test_illegal_play_is_in_the_public_alerts(ctl, client):
    rng = random.Random(5)
    assert play_until(ctl, rng, at_defence)
    csrf = login(client)
    r = client.post("/api/admin/event", headers={"X-CSRF-Token": csrf},
                    json={"event": illegal_beat(ctl)})
    assert r.status_code == 200
    alerts = client.get("/api/state").json()["alerts"]
    assert alerts[-1]["level"] == "illegal" and alerts[-1]["rule"]


# -- history --------------------------------------------------------------------------------------
def test_history_lists_games_and_downloads(ctl, client):
    rng = random.Random(2)
    assert play_until(ctl, rng, lambda c: c.game.is_over)
    totals = ctl.game.score_sheet().totals
    ctl.new_game("joker", {"minus_joker": True}, ["a", "b", "c", "d"])
    games = client.get("/api/games").json()
    assert [g["id"] for g in games] == [2, 1]
    first = games[1]
    assert first["status"] == "finished" and first["totals"] == totals and first["started"]
    detail = client.get("/api/games/1").json()
    assert detail["sheet"]["totals"] == totals
    text = client.get("/api/games/1/record")
    assert text.status_code == 200 and "attachment" in text.headers["content-disposition"]
    assert record.loads(text.text).game.score_sheet().totals == totals
    csv = client.get("/api/games/1.csv").text.splitlines()
    assert csv[0].startswith("deal,") and csv[-1].startswith("total," + ",".join(map(str, totals)))
    assert client.get("/api/games/1.json").json()["sheet"]["totals"] == totals
    assert client.get("/api/games/2.json").json()["options"] == {"minus_joker": True}
    assert client.get("/api/games/99").status_code == 404
    assert client.get("/api/games/99/record").status_code == 404
    assert client.get("/api/games/abc").status_code in (404, 422)


def test_pages_are_served_with_security_headers(client):
    for path in ("/", "/history", "/admin"):
        r = client.get(path)
        assert r.status_code == 200 and "<html" in r.text
        assert "default-src 'self'" in r.headers["content-security-policy"]
        assert r.headers["x-frame-options"] == "DENY"
    assert client.get("/api/i18n/en").json()["trump"] == "trump"
    assert client.get("/api/i18n").json()["lang"] == "ru"
    assert client.get("/api/i18n/xx").json()["lang"] == "ru"


def test_history_links_each_deals_events_and_footage(tmp_path):
    """A deal's events and its archived shoe clip, as the history page links them."""
    import numpy as np

    from controller.archive import FootageArchive

    c = Controller(GameLog(tmp_path / "t.sqlite"))
    gid = c.new_game("durak2", {}, ["Аня", "Боря"])
    rng = random.Random(3)
    for _ in range(20):
        step(c, rng)
    archive = FootageArchive(tmp_path / "footage")
    frame = np.zeros((48, 64, 3), np.uint8)
    for n in range(5):
        archive.add(gid, 1, 100 + n, n / 30, frame)
    archive.close()
    with TestClient(create_app(c, admin_pin_hash=PIN_HASH, archive=archive)) as tc:
        # while the deal is played its events and footage would show the hands
        assert tc.get(f"/api/games/{gid}/deals/1/events").status_code == 403
        assert tc.get(f"/api/games/{gid}/deals/1/clip").status_code == 403
        assert tc.get(f"/api/games/{gid}/record").status_code == 403
        c.submit(Admin(action="end_game"))
        detail = tc.get(f"/api/games/{gid}").json()
        assert detail["clips"] == [1]
        events = tc.get(f"/api/games/{gid}/deals/1/events").json()["events"]
        assert events == [str(e) for e in c.game.raw_log]  # one Durak game so far: all of it
        clip = tc.get(f"/api/games/{gid}/deals/1/clip")
        assert clip.status_code == 200 and clip.headers["content-type"] == "video/mp4"
        assert clip.content == archive.find(gid, 1)[0].path.read_bytes()
        assert tc.get(f"/api/games/{gid}/deals/2/clip").status_code == 404
        assert tc.get(f"/api/games/{gid}/deals/9/events").status_code == 404

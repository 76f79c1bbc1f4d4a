"""The table check on a live camera: ``cardtable table check --config`` reads the config's
overhead camera, and the admin page's «Проверка стола» runs the same check on a running table's
camera (``controller.table_check``). A pass stores the calibration where the config keeps it and
the running table reader takes it; refusals (a game in play, no table camera, bad cards, a check
already running) say why in Russian (English with ``?lang=en``) and store nothing.

Real MPEG-4 clips through ``hardware.camera``'s file camera (in real time for the running
table), a real SQLite log, the real web app."""

from __future__ import annotations

import os
import random
import time
from pathlib import Path

import pytest
from _table_kit import CLOSE, SEAT1, SEAT2, data_dir, taught
from fastapi.testclient import TestClient

from cardtable.cli import main
from controller.config import load_config
from controller.core import Controller
from controller.live import build_table
from controller.log import GameLog
from controller.table_check import LiveCheck
from synth.table import make_scripted_clip
from table_ui.app import create_app
from table_ui.security import hash_pin
from table_ui.testing import CHROMIUM, CHROMIUM_ARGS, LiveServer, step
from vision.table.calibrate import load_calibration
from vision.video import frames

pytestmark = pytest.mark.timeout(600)
PIN = "2468"
ARTIFACTS = Path(__file__).with_name("artifacts")


@pytest.fixture(scope="module")
def anglo(tmp_path_factory):
    return taught(tmp_path_factory.getbasetemp(), "anglo", "36")


@pytest.fixture(autouse=True)
def data(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("CARDTABLE_DATA_DIR", str(data_dir(tmp_path_factory.getbasetemp())))


def _config(folder: Path, clip: str | None, realtime: bool = False) -> Path:
    """A table config beside its clip: the overhead camera plays the clip (a relative path,
    taken from the config's folder), the table's files go to ``folder/data``."""
    camera = (f'\n[cameras.table]\nkind = "file"\npath = "{clip}"\n'
              f'realtime = {str(realtime).lower()}\nwidth = 1280\nheight = 720\n') if clip else ""
    path = folder / "table.toml"
    path.write_text(f'[table]\ndeck = "anglo"\ndata_dir = "{folder / "data"}"\n\n'
                    f'[game]\ndefault = "durak2"\n\n[panels]\nbackend = "none"\n\n'
                    f'[gpio]\nfactory = "mock"\n{camera}', encoding="utf-8")
    return path


def _clip(path: Path, laid: list, lead: int = 8) -> None:
    make_scripted_clip(path, "anglo", [(lead, []), (14, laid), (10, [])], table="blue_felt",
                       setup=CLOSE)


def test_the_live_check_reads_the_configs_camera_and_stores_where_the_config_says(
        anglo, tmp_path, capsys):
    _clip(tmp_path / "check.mp4", [("AS", *SEAT1), ("AH", *SEAT2)])
    cfg = _config(tmp_path, "check.mp4")
    assert main(["table", "check", "--config", str(cfg), "--cards", "AS,AH"]) == 0
    out = capsys.readouterr()
    assert "положите Т♠, Т♥" in out.err and "ПРОВЕРКА ПРОЙДЕНА" in out.out
    stored = tmp_path / "data" / "table.calibration.json"
    assert load_config(cfg).calibration_path("table") == stored
    cal = load_calibration(stored)
    # 63 mm cards, measured from the two read (the set-up's card, by construction)
    assert cal.card_mm is not None and cal.card_mm[0] == pytest.approx(63.0, abs=3.0)
    assert cal.check is not None and cal.check["cards"] == ["AS", "AH"]


def test_a_failed_live_check_stores_nothing_and_bad_requests_are_refused(
        anglo, tmp_path, capsys):
    _clip(tmp_path / "one.mp4", [("AS", *SEAT1)])  # seat 2's card never laid
    cfg = _config(tmp_path, "one.mp4")
    assert main(["table", "check", "--config", str(cfg), "--cards", "AS,AH"]) == 1
    out = capsys.readouterr().out
    assert "НЕ ПРОЙДЕНА" in out and "место 2" in out
    assert not (tmp_path / "data" / "table.calibration.json").exists()

    for argv, words in (
            (["--config", str(_config(tmp_path, None))], "has no [cameras.table]"),
            ([str(tmp_path / "one.mp4"), "--config", str(cfg)], "a clip from the table camera, "
                                                                 "or --config"),
            ([str(tmp_path / "one.mp4"), "--deck", "anglo", "--seconds", "10"],
             "--seconds is for a live check"),
            (["--config", str(cfg), "--marker-cm", "5"], "come from the config")):
        assert main(["table", "check", *argv, "--cards", "AS,AH"]) == 2
        assert words in capsys.readouterr().err
    assert not (tmp_path / "data" / "table.calibration.json").exists()


def _wait(client: TestClient, until, timeout: float = 120.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        body = client.get("/api/admin/table_check").json()
        if until(body):
            return body
        time.sleep(0.1)
    raise AssertionError(f"the check did not get there: {body}")


def test_the_admin_checks_a_running_table_and_its_reader_takes_the_result(anglo, tmp_path):
    # the camera plays in real time: 5 s of empty table, the two aces, the empty table again
    _clip(tmp_path / "live.mp4", [("AS", *SEAT1), ("AH", *SEAT2)], lead=150)
    cfg = load_config(_config(tmp_path, "live.mp4", realtime=True))
    ctl = Controller(GameLog(tmp_path / "table.sqlite"))
    table = build_table(ctl, cfg).start()
    try:
        app = create_app(ctl, admin_pin_hash=hash_pin(PIN), table_check=table.check)
        with TestClient(app) as client:
            csrf = client.post("/api/admin/login", json={"pin": PIN}).json()["csrf"]
            head = {"X-CSRF-Token": csrf}
            assert client.get("/api/admin/table_check").json()["state"] == "idle"
            # a card named twice, a card the deck lacks: refused, with the reason in Russian
            r = client.post("/api/admin/table_check", json={"cards": ["AS", "AS"]}, headers=head)
            assert r.status_code == 409 and r.json()["rule"] == "check-same-card"
            assert "другую карту" in r.json()["detail"]
            r = client.post("/api/admin/table_check?lang=en", json={"cards": ["AS", "BJ"]},
                            headers=head)
            assert r.status_code == 409 and r.json()["rule"] == "check-not-in-deck"
            assert "has no BJ" in r.json()["detail"]
            r = client.post("/api/admin/table_check", json={"cards": ["AS", "AH"],
                                                            "seconds": 60}, headers=head)
            assert r.status_code == 200, r.text
            assert r.json()["state"] == "running" and r.json()["cards"] == ["AS", "AH"]
            again = client.post("/api/admin/table_check", json={"cards": ["AS", "AH"]},
                                headers=head)
            assert again.status_code == 409 and again.json()["rule"] == "check-running"
            # the clip ends before the 60 s: so does the check, on what it saw
            done = _wait(client, lambda b: b["state"] != "running")
            assert done["state"] == "passed", done
            assert [s["read"] for s in done["seats"]] == [["AS"], ["AH"]]
            assert done["figures"]["area_cm"] == pytest.approx(36.0, abs=1.0)
            stored = tmp_path / "data" / "table.calibration.json"
            assert done["stored"] == str(stored) and load_calibration(stored).card_mm is not None
            # the table reader takes the measured card size from now on
            assert table.table_calibration is not None
            assert table.table_calibration.card_mm == load_calibration(stored).card_mm

            # once a game is in play the check is refused: its cards would be read as plays
            rng = random.Random(1)
            step(ctl, rng)
            assert ctl.game is not None and ctl.game.events
            r = client.post("/api/admin/table_check", json={"cards": ["AS", "AH"]}, headers=head)
            assert r.status_code == 409 and r.json()["rule"] == "check-game-in-play"
            assert "идёт игра" in r.json()["detail"]
            assert client.get("/api/admin/table_check").json()["state"] == "passed"
    finally:
        table.stop()


def test_without_a_table_camera_the_check_is_unavailable(tmp_path):
    ctl = Controller(GameLog(tmp_path / "table.sqlite"))
    with TestClient(create_app(ctl, admin_pin_hash=hash_pin(PIN))) as client:
        csrf = client.post("/api/admin/login", json={"pin": PIN}).json()["csrf"]
        body = client.get("/api/admin/table_check").json()
        assert body["state"] == "unavailable" and "нет камеры над столом" in body["message"]["ru"]
        r = client.post("/api/admin/table_check", json={"cards": ["AS", "AH"]},
                        headers={"X-CSRF-Token": csrf})
        assert r.status_code == 409 and r.json()["rule"] == "check-no-table-camera"
        # no session: no check at all
        client.post("/api/admin/logout", json={}, headers={"X-CSRF-Token": csrf})
        assert client.get("/api/admin/table_check").status_code == 401


@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is absent")
def test_the_admin_page_says_in_russian_why_a_check_failed(anglo, tmp_path):
    from playwright.sync_api import sync_playwright

    profile, faces = anglo
    clip = tmp_path / "one.mp4"
    _clip(clip, [("AS", *SEAT1)])  # seat 2's ace never laid
    stored = tmp_path / "table.calibration.json"
    check = LiveCheck(profile, faces, save_to=stored, marker_mm=44.0, fps=30.0,
                      calibration=lambda: None, busy=lambda: None, on_pass=lambda cal: None)
    ctl = Controller(GameLog(tmp_path / "table.sqlite"))
    with sync_playwright() as p, LiveServer(ctl, pin=PIN, table_check=check) as srv:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        pages = []
        for size, mobile in (({"width": 390, "height": 844}, True),
                             ({"width": 1920, "height": 1080}, False)):
            page = browser.new_page(bypass_csp=True, viewport=size, is_mobile=mobile,
                                    has_touch=mobile)
            page.goto(srv.url + "/admin")
            page.fill("#pin", PIN)
            page.click("#login")
            page.wait_for_selector("#panel:not(.hidden)", timeout=10_000)
            pages.append(page)
        phone, tv = pages
        assert phone.inner_text("#check-h") == "Проверка стола"
        phone.fill("#check-cards", "as ah")
        phone.click("#check-start")
        phone.wait_for_function("document.getElementById('check-status').dataset.state == "
                                "'running'", timeout=10_000)
        assert "Идёт проверка" in phone.inner_text("#check-status")
        # the table's camera loop hands the check its frames (here: the clip's, at 30 fps)
        timed = ((i / 30.0, f) for i, f in enumerate(frames(clip)))
        t0, first = next(timed)
        assert check.take(t0, first, timed)
        for page in pages:
            page.wait_for_function("document.getElementById('check-status').dataset.state == "
                                   "'failed'", timeout=10_000)
            text = page.inner_text("#check-status")
            assert "Проверка не пройдена" in text and "калибровка не изменена" in text
            assert "место 2: ожидалась Т♥, прочитано —" in text  # the card style, not AH
            assert "место 1: ожидалась Т♠, прочитано Т♠" in text
            assert " seat " not in text and "expected" not in text
        phone.screenshot(path=str(ARTIFACTS / "admin-check-390x844.png"), full_page=True)
        tv.screenshot(path=str(ARTIFACTS / "admin-check-1920x1080.png"), full_page=True)
        assert not stored.exists()
        browser.close()

"""Deck profiles on disk: data-dir override, versioning and validation on load."""

from __future__ import annotations

import json

import numpy as np
import pytest

from vision.profile import (
    PROFILE_VERSION,
    DeckProfile,
    ProfileError,
    data_dir,
    list_profiles,
    load_profile,
    profile_path,
    save_profile,
)


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDTABLE_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def _profile(name: str = "club") -> DeckProfile:
    rng = np.random.default_rng(1)
    templates = {code: rng.integers(0, 255, (30, 12, 3), dtype=np.uint8) for code in ("QS", "TH")}
    return DeckProfile.build(name, "video:x.mp4", 390.0, (-20, -40, -8, -10), (4, 8), templates)


def test_data_dir_follows_the_environment(data_home):
    assert data_dir() == data_home
    assert profile_path("club") == data_home / "decks" / "club.json"


def test_save_and_load_round_trip_keeps_templates():
    original = _profile()
    save_profile(original)
    loaded = load_profile("club")
    assert loaded.version == PROFILE_VERSION
    assert [c.code for c in loaded.cards] == ["QS", "TH"]
    assert np.array_equal(loaded.templates()["TH"], original.templates()["TH"])
    assert list_profiles() == ["club"]


def test_unknown_deck_names_the_known_ones():
    save_profile(_profile("atlas"))
    with pytest.raises(ProfileError, match=r"no deck profile called .nope.*atlas"):
        load_profile("nope")


def test_truncated_json_is_a_clear_error(data_home):
    path = save_profile(_profile())
    path.write_text(path.read_text()[:200])
    with pytest.raises(ProfileError, match="corrupt"):
        load_profile("club")


def test_future_version_is_refused():
    path = save_profile(_profile())
    raw = json.loads(path.read_text())
    raw["version"] = PROFILE_VERSION + 1
    path.write_text(json.dumps(raw))
    with pytest.raises(ProfileError, match="version"):
        load_profile("club")


def test_damaged_template_image_is_refused():
    path = save_profile(_profile())
    raw = json.loads(path.read_text())
    raw["cards"][0]["png"] = "bm90IGEgcG5n"  # base64 of "not a png"
    path.write_text(json.dumps(raw))
    with pytest.raises(ProfileError, match="corrupt"):
        load_profile("club")


def test_template_of_the_wrong_size_is_refused():
    path = save_profile(_profile())
    raw = json.loads(path.read_text())
    raw["roi"] = [-20, -40, -8, -5]
    path.write_text(json.dumps(raw))
    with pytest.raises(ProfileError, match="corrupt"):
        load_profile("club")


@pytest.mark.parametrize("name", ["../escape", "", "a/b", ".hidden"])
def test_bad_names_are_rejected(name):
    with pytest.raises(ProfileError, match="bad deck name"):
        profile_path(name)


def test_concurrent_saves_and_loads_never_crash_or_see_a_partial_profile():
    import threading

    profiles = [_profile(), _profile()]
    save_profile(profiles[0])
    errors: list[BaseException] = []
    stop = threading.Event()

    def writer(k: int) -> None:
        try:
            for _ in range(60):
                save_profile(profiles[k % 2])
        except BaseException as exc:
            errors.append(exc)

    def reader() -> None:
        try:
            while not stop.is_set():
                assert [c.code for c in load_profile("club").cards] == ["QS", "TH"]
        except BaseException as exc:
            errors.append(exc)

    readers = [threading.Thread(target=reader) for _ in range(2)]
    writers = [threading.Thread(target=writer, args=(k,)) for k in range(4)]
    for t in readers + writers:
        t.start()
    for t in writers:
        t.join()
    stop.set()
    for t in readers:
        t.join()
    assert errors == []
    assert list_profiles() == ["club"]
    assert [p.name for p in profile_path("club").parent.iterdir()] == ["club.json"]


def test_negative_search_margin_is_refused_on_load():
    path = save_profile(_profile())
    raw = json.loads(path.read_text())
    raw["search"] = [-40, 8]
    path.write_text(json.dumps(raw))
    with pytest.raises(ProfileError, match="search"):
        load_profile("club")


@pytest.mark.parametrize("name", ["club\n", "club\nx", "a\\b", "a:b"])
def test_names_with_newlines_or_path_characters_are_rejected(name):
    with pytest.raises(ProfileError, match="bad deck name"):
        profile_path(name)
    with pytest.raises(ValueError, match="bad deck name"):
        _profile(name)


def test_turned_corners_round_trip_and_are_matched_after_the_cards():
    path = save_profile(_profile())
    raw = json.loads(path.read_text())
    assert raw["turned"] == []  # a one-pass profile
    raw["turned"] = [dict(raw["cards"][0])]  # QS's turned corner
    path.write_text(json.dumps(raw))
    loaded = load_profile("club")
    assert [c.code for c in loaded.turned] == ["QS"]
    assert [code for code, _ in loaded.views()] == ["QS", "TH", "QS"]


def test_a_profile_without_the_turned_field_still_loads():
    path = save_profile(_profile())
    raw = json.loads(path.read_text())
    del raw["turned"]  # written before turned passes existed
    path.write_text(json.dumps(raw))
    assert load_profile("club").turned == []


@pytest.mark.parametrize("what, turned", [
    ("a card not taught", lambda cards: [{**cards[0], "code": "AH"}]),
    ("a card twice", lambda cards: [cards[0], cards[0]]),
    ("a corner of another size", lambda cards: [{**cards[0], "png": _png(20, 12)}]),
])
def test_bad_turned_corners_are_refused_on_load(what, turned):
    path = save_profile(_profile())
    raw = json.loads(path.read_text())
    raw["turned"] = turned(raw["cards"])
    path.write_text(json.dumps(raw))
    with pytest.raises(ProfileError, match="corrupt"):
        load_profile("club")


def _png(h: int, w: int) -> str:
    import base64

    import cv2

    ok, buf = cv2.imencode(".png", np.zeros((h, w, 3), np.uint8))
    assert ok
    return base64.b64encode(buf.tobytes()).decode("ascii")

"""Spoken announcements (table_ui/speech.py): what is decided from the controller's changes, the
WAV files espeak-ng makes of it, and silence when the setting is off (the default)."""

from __future__ import annotations

import random
import wave
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from controller.core import Controller
from controller.inputs import Admin
from engine.view import table_view
from table_ui import i18n
from table_ui.app import create_app
from table_ui.security import hash_pin
from table_ui.speech import EspeakSink, ListSink, Speaker, WavSink, espeak_available
from table_ui.testing import at_defence, deal_until_play, illegal_beat, play_until

PIN_HASH = hash_pin("2468")
NEEDS_ESPEAK = pytest.mark.skipif(not espeak_available(),
                                  reason="espeak-ng is not installed (apt-get install espeak-ng)")






def drive(ctl: Controller) -> dict[str, object]:
    """A Durak game to its first scored deal: trump known, one illegal beat on the way."""
    rng = random.Random(5)
    deal_until_play(ctl, rng)
    trump = ctl.game and table_view(ctl.game).trump
    assert play_until(ctl, rng, at_defence)
    reply = ctl.submit(Admin(action="event", event=illegal_beat(ctl)))
    assert any(a.level == "illegal" for a in reply.alerts)
    assert play_until(ctl, rng, lambda c: bool(c.public_state()["view"]["deals"]))
    return {"trump": trump, "illegal_seat": next(a.seat for a in reply.alerts
                                                 if a.level == "illegal")}


def test_decides_trump_illegal_play_and_deal_score_in_russian(ctl):
    sink = ListSink()
    speaker = Speaker(sink)  # Russian by default
    unsubscribe = speaker.attach(ctl)
    facts = drive(ctl)
    unsubscribe()
    ru = i18n.CATALOGUE["ru"]
    said = sink.said
    assert said == list(speaker.spoken)
    assert said[0] == f"Козырь — {ru['suits'][facts['trump']]}."
    names = ["Аня", "Боря"]
    assert f"Нарушение правил: {names[facts['illegal_seat']]}!" in said
    deal = ctl.public_state()["view"]["deals"][0]
    totals = ctl.public_state()["view"]["totals"]
    line = (f"Раздача 1: Аня {deal['points'][0]}, Боря {deal['points'][1]}. "
            f"Итого: Аня {totals[0]}, Боря {totals[1]}.")
    assert said[-1] == line
    assert len(said) == 3  # each announced once, nothing else


def test_english_and_priming(ctl):
    deal_until_play(ctl, random.Random(5))
    sink = ListSink()
    speaker = Speaker(sink, lang="en")
    speaker.attach(ctl)  # the trump is already known: not repeated on attach
    assert sink.said == []
    suit = table_view(ctl.game).trump
    assert speaker.trump_phrase(suit) == f"Trump: {i18n.CATALOGUE['en']['suits'][suit]}."
    assert speaker.trump_phrase("none") == "No trump."


def test_off_by_default_nothing_is_spoken(ctl, monkeypatch):
    calls = []
    monkeypatch.setattr("subprocess.run", lambda *a, **k: calls.append(a))
    app = create_app(ctl, admin_pin_hash=PIN_HASH)
    with TestClient(app):
        assert app.state.speaker is None
        drive(ctl)
    assert calls == []


def test_create_app_speech_speaks_through_the_given_sink(ctl):
    sink = ListSink()
    app = create_app(ctl, admin_pin_hash=PIN_HASH, speech=sink)
    with TestClient(app) as tc:
        drive(ctl)
        assert tc.get("/api/i18n").json()["say_trump"] == "Козырь — {suit}."
    assert len(sink.said) == 3 and sink.said[0].startswith("Козырь")
    seen = len(sink.said)
    drive_more = ctl.submit(Admin(action="undo"))  # after shutdown the speaker is unsubscribed
    assert drive_more.accepted and len(sink.said) == seen


def test_a_full_queue_drops_the_oldest_and_never_blocks():
    sink = EspeakSink(size=2)
    sink._argv = lambda text: ["sleep", "0.2"]  # a slow voice, whatever espeak-ng's presence
    for i in range(6):
        sink.say(str(i))  # returns at once although the worker is busy
    assert sink.dropped >= 3
    assert sink.wait(5)
    sink.close()


@NEEDS_ESPEAK
def test_wav_sink_writes_real_speech(ctl, tmp_path):
    sink = WavSink(tmp_path / "wav")
    speaker = Speaker(sink)
    speaker.attach(ctl)
    drive(ctl)
    assert sink.wait(60), "espeak-ng did not finish"
    sink.close()
    assert sink.failed == 0 and sink.dropped == 0
    assert [p.name for p in sink.files] == ["001.wav", "002.wav", "003.wav"]
    for path in sink.files:
        with wave.open(str(path)) as w:
            frames, rate = w.getnframes(), w.getframerate()
            assert frames > 0 and rate > 0
            assert frames / rate > 0.3, (path, frames / rate)
    # the deal's line (names, points, totals) is the longest phrase: the longest audio
    durations = [_duration(p) for p in sink.files]
    assert durations[-1] == max(durations)


def _duration(path: Path) -> float:
    with wave.open(str(path)) as w:
        return w.getnframes() / w.getframerate()


def test_display_page_decides_the_same_phrases_with_speak_1(ctl):
    """The display's ?speak=1 (browser speechSynthesis): same phrases, checkbox ticked."""
    import os

    from table_ui.testing import CHROMIUM, CHROMIUM_ARGS, LiveServer

    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is absent (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with LiveServer(ctl) as srv, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(bypass_csp=True)
        page.goto(srv.url + "/?speak=1")
        page.wait_for_function(f"Number(document.body.dataset.seq) >= {ctl.seq}", timeout=10_000)
        assert page.locator("#speak").is_checked()
        deal_until_play(ctl, random.Random(5))
        suit = i18n.CATALOGUE["ru"]["suits"][table_view(ctl.game).trump]
        page.wait_for_function("(document.body.dataset.said || '').includes('Козырь')",
                               timeout=10_000)
        assert page.evaluate("document.body.dataset.said") == f"Козырь — {suit}."
        browser.close()

"""Every ``??`` the shoe reader gives carries the named check that refused the card (its
``reason``, in the JSON line too), in the classic shoe and in a learned geometry alike."""

from __future__ import annotations

import random

from _shoe_deal import teach_and_deal

from synth.shoe import make_clip
from vision.cards import UNKNOWN, ReaderFlag, composition
from vision.reader import UNKNOWN_FACE_REFUSALS, CardEvent, Refusal, ShoeReader, read_video
from vision.teach import teach_from_video


def test_the_checks_are_named_and_each_refusal_is_a_stable_id():
    names = [c.__name__ for c in ShoeReader.checks]
    assert names == ["_face_known", "_corner_distinct", "_looks_agree", "_look_alike_beaten",
                     "_lead_clear"]
    assert {str(r) for r in Refusal} >= {"index-not-seen", "no-match", "mismatch", "narrow-lead"}
    assert all(r == r.lower() and " " not in r for r in Refusal)


def test_untaught_cards_are_refused_as_unknown_faces_with_the_reason(tmp_path):
    # Taught 32 cards (7..A), dealt 36: the four sixes were never taught.
    taught = composition("32")
    make_clip(tmp_path / "teach.mp4", "anglo", taught, "easy", seed=21)
    profile = teach_from_video("anglo", tmp_path / "teach.mp4", taught)
    deal = composition("36")
    random.Random(21).shuffle(deal)
    make_clip(tmp_path / "deal.mp4", "anglo", deal, "easy", seed=22)
    events = list(read_video(tmp_path / "deal.mp4", profile))
    assert len(events) == 36
    sixes = [e for e, card in zip(events, deal, strict=True) if card.startswith("6")]
    assert all(e.card == UNKNOWN for e in sixes), [e.to_json() for e in sixes]
    assert all(e.reason in UNKNOWN_FACE_REFUSALS and e.flag == ReaderFlag.UNKNOWN_FACE
               for e in sixes)
    assert all(e.to_json()["reason"] == str(e.reason) for e in sixes)
    named = [e for e in events if e.card != UNKNOWN]
    assert named and all(e.reason is None and "reason" not in e.to_json() for e in named)


def test_a_learned_geometry_gives_its_reasons_through_the_same_checks(tmp_path):
    profile, clip, truth = teach_and_deal(tmp_path, "up-wide", "Атласные", composition("36"),
                                          5, 0)
    assert not profile.geometry.is_default()  # a learned geometry: the strip path
    events: list[CardEvent] = list(read_video(clip, profile))
    assert len(events) == len(truth.items)
    unsure = [e for e in events if e.card == UNKNOWN]
    assert all(isinstance(e.reason, Refusal) for e in unsure), [e.to_json() for e in unsure]
    assert all(e.looked_at >= 0 and e.looks >= 1 for e in events if e.card != UNKNOWN)

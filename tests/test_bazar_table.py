"""What the table sees of Bazar-Belot: describe(), the score sheet, records and options."""

from __future__ import annotations

import json

import pytest
from _bazar_kit import SUITS_DEAL, deal, new_game, run

from engine import record
from engine.bazar import BazarBelot
from engine.errors import SettingsError


def test_describe_follows_the_deal_and_is_json() -> None:
    game = BazarBelot()
    assert game.describe()["phase"] == "lot"
    run(game, "0 dealer")
    deal(game, SUITS_DEAL)
    run(game, "1 bid hand:D; 2 bid contra")
    d = game.describe()
    assert d["phase"] == "contra" and d["bid"] == "hand:D" and d["contra"] == 1
    assert d["auction"] == ["1: hand:D", "2: contra"]
    run(game, "3 bid pass; 1 bid pass")
    run(game, "1 declare 7D 8D 9D TD JD QD KD AD; 1 play 7D; 2 play 7H")
    d = game.describe()
    assert d["contract"] == "Капо с руки ♦ Контра (seat 1)"
    assert d["trump"] == "♦" and d["out_of_play"] == 3 and d["to_act"] == 0
    assert d["table"] == [(1, "7D"), (2, "7H")]
    assert d["hand_sizes"] == [8, 7, 7, 8]
    assert d["constructions"] == [(1, "квинта 7♦ 8♦ 9♦ 10♦ J♦ Q♦ K♦ A♦")]
    json.dumps(d, ensure_ascii=False)


def test_score_sheet_lists_options_items_and_result() -> None:
    game = new_game(target=50)
    deal(game, SUITS_DEAL)
    run(game, "1 bid kapo:D; 2 bid pass; 3 bid pass; 0 bid pass; 1 bid pass")
    for rank in "789TJQKA":
        run(game, f"1 play {rank}D; 2 play {rank}H; 3 play {rank}S; 0 play {rank}C")
    # Капо ♦ made: 25 + capot 252 / 10 (25) = 50 ≥ target 50: the partie is over.
    sheet = game.score_sheet()
    assert sheet.finished and sheet.winner == 1 and sheet.totals == [0, 50]
    assert sheet.options["target"] == 50 and sheet.options["first_dealer"] == 0
    items = [(i.side, i.points, i.rule) for i in sheet.deals[0].items]
    assert items == [(1, 25, "contract-made"), (1, 25, "visty"), (0, 0, "visty")]
    assert "pair 1 & 3 wins 50–0" in sheet.render()
    assert game.legal_actions() == [] and game.to_act() is None


def test_record_round_trip_with_options_and_lot() -> None:
    game = BazarBelot(deal_pattern="3+2+3", policy="on_claim")
    run(game, "3 dealer")
    deal(game, SUITS_DEAL)
    run(game, "0 bid 8:C; 1 bid contra")
    text = record.dumps(game)
    assert "option deal_pattern=3+2+3" in text and "\n3 dealer\n" in text
    back = record.loads(text).game
    assert back.snapshot() == game.snapshot() and back.raw_log == game.raw_log


def test_options_from_text_and_bad_options() -> None:
    assert BazarBelot({"first_dealer": "2"}).dealer == 2
    assert BazarBelot({"first_dealer": "lot"}).phase == "lot"
    for bad in ({"first_dealer": "5"}, {"deal_pattern": "2+2+4"}, {"trumps": "yes"},
                {"four_passes": "never"}):
        with pytest.raises(SettingsError):
            BazarBelot(bad)


def test_undo_a_bid_and_fix_a_misread_card() -> None:
    from _bazar_kit import shoe_events

    from engine.events import ev

    game = new_game()
    events = shoe_events(SUITS_DEAL, 0)
    for e in events[:5]:
        game.apply(e)
    # The 2nd card (to seat 1) was really the 7♣, not the 8♦: fix event 2 of the log.
    game.record(ev("fix 2 shoe 7C"))
    assert [c.code for c in game.hand(1)] == ["7C", "7D", "9D", "TD"]
    assert game.raw_log[-1].kind == "fix" and game.problems() == []
    game = new_game()
    deal(game, SUITS_DEAL)
    before = game.snapshot()
    run(game, "1 bid 8:D")
    game.record(ev("undo"))
    assert game.snapshot() == before and [str(e) for e in game.raw_log[-2:]] == ["1 bid 8:D", "undo"]


@pytest.mark.parametrize(("bid", "trump"), [("8:D", "D"), ("8:BK", "none"), ("20:VK", "all")])
def test_the_display_trump_agrees_with_the_contract(bid: str, trump: str) -> None:
    """The table view (what the TV's trump panel reads) names the contract's trump the way every
    game does: a suit letter, "none" for БК, "all" for ВК — not a symbol it cannot show."""
    game = BazarBelot()
    run(game, "0 dealer")
    deal(game, SUITS_DEAL)
    run(game, f"1 bid {bid}; 2 bid pass; 3 bid pass; 0 bid pass")
    run(game, "1 bid pass")
    assert game.table_view().trump == trump, game.describe()

"""End to end: ``cardtable replay`` on the three bundled table sessions, checked by hand.

Each bundle (``controller/data/{belot2,durak2,bazar}``) is replayed once, through the real shoe
reader and table controller, and its JSON score sheet is compared with figures worked out by hand
from the event log in the bundle's ``game.json`` and the rules (RULES.md, docs/games/*.md). The
arithmetic is in the comments. Where RULES.md §6 settles the reading (Belot's «неправильный бой»,
Durak's illegal plays) the
test says so in its name. The last tests feed the command bad input: exit status 2, one ``error:`` line, no traceback.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "controller" / "data"

# libav (ffmpeg inside OpenCV) writes its own log lines straight to fd 2, e.g.
# "[mov,mp4,m4a,3gp,3g2,mj2 @ 0x55f0e2ddffc0] moov atom not found"; they are not ours.
LIBAV_LINE = re.compile(r"^\[[\w,]+ @ 0x[0-9a-f]+\] ")


def replay(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cardtable", "replay", *map(str, args)],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )


class Run:
    def __init__(self, bundle: Path, db: Path) -> None:
        self.proc = replay(bundle, "--json", "--no-progress", "--db", db)
        self.sheet: dict[str, Any] = json.loads(self.proc.stdout) if self.proc.returncode == 0 \
            else {}
        self.truth = json.loads((bundle / "game.json").read_text(encoding="utf-8"))
        self.inputs: list[dict[str, Any]] = []
        if self.proc.returncode == 0:
            from controller.log import GameLog

            log = GameLog(db, readonly=True)
            (game,) = log.games()
            self.inputs = [e.body for e in log.entries(game.id, kinds=("input",))]
            log.close()


def assert_read_from_the_overhead_footage(run: Run, bundle: Path) -> None:
    """Every card played reached the log as the table reader's decision on a frame of
    ``table.mp4``, in the order and from the seats the footage shows; the recording's inputs
    hold no card moves of their own."""
    assert_clean(run)
    lines = (bundle / "inputs.jsonl").read_text(encoding="utf-8").splitlines()
    assert not [x for x in lines if json.loads(x).get("kind") in ("placed", "removed")]
    placed = [i for i in run.inputs if i["kind"] == "placed"]
    shown = run.truth["table"]["placed"]
    assert [(p["seat"], p["card"], p.get("covers")) for p in placed] == [
        (p["seat"], p["card"], p["covers"]) for p in shown]
    assert all(p["frame"] is not None for p in placed)
    # each decided within 300 ms of the card lying uncovered (issue 13), on the session's clock
    assert all(0 <= p["t"] - q["t"] <= 0.3 for p, q in zip(placed, shown, strict=True))
    removed = [sorted(i["cards"]) for i in run.inputs if i["kind"] == "removed"]
    swept = [sorted(r["cards"]) for r in run.truth["table"]["removed"]]
    # the replay stops when the game is over: the last trick may still lie on the table
    assert removed == swept[: len(removed)] and len(removed) >= len(swept) - 1


def assert_clean(run: Run) -> None:
    assert run.proc.returncode == 0, run.proc.stderr
    assert "Traceback" not in run.proc.stderr, run.proc.stderr


def items(deal: dict[str, Any]) -> list[tuple[int, str, int]]:
    return sorted((i["side"], i["rule"], i["points"]) for i in deal["items"])


@pytest.fixture(scope="module")
def belot2(tmp_path_factory: pytest.TempPathFactory) -> Run:
    return Run(DATA / "belot2", tmp_path_factory.mktemp("belot2") / "replay.sqlite")


@pytest.fixture(scope="module")
def durak2(tmp_path_factory: pytest.TempPathFactory) -> Run:
    return Run(DATA / "durak2", tmp_path_factory.mktemp("durak2") / "replay.sqlite")


@pytest.fixture(scope="module")
def bazar(tmp_path_factory: pytest.TempPathFactory) -> Run:
    return Run(DATA / "bazar", tmp_path_factory.mktemp("bazar") / "replay.sqlite")


# ============================================================================ belot2
# Options: game_type=301, everything else default: policy penalize, first_dealer 0, lot 1
# (seat 1 speaks first in deal 1), first_speaker loser, second open card dealt.
#
# Deal 1 (game.json events 1-43). Dealer seat 0, non-dealer seat 1.
#   shoe 1-3 → seat 1: JS TS KD      4-6 → seat 0: KS QC 8H
#   shoe 7-9 → seat 1: AS 7H 9C    10-12 → seat 0: QS 7S TH      13: 9S turned (♠ candidate)
#   "1 bid play": seat 1 is the declarer, trump ♠.
#   14-16 → seat 1: TC 8D 7C       17-19 → seat 0: 9H AH AC      20: QD second open card
#   seat 0: KS QS 7S | AH TH 9H 8H | AC QC        seat 1: AS JS TS | 7H | TC 9C 7C | KD 8D
#   Declarations: seat 0 "declare 8H 9H TH" — a maximal terz (no JH, no 7H), 20; seat 1 declares
#   nothing (A-10-J of ♠ is no run) → seat 0 wins the comparison: 20.
#   Bella: seat 0 holds KS + QS and says "bella" (event 29) before playing either → 20.
#   Tricks (seat 1 leads as first speaker; trump J20 9 14 A11 10 10 K4 Q3; plain A11 10 10 K4 Q3
#   J2):
#     1. 1:9C 0:QC   Q beats 9          seat 0   0 + 3  =  3
#     2. 0:7S 1:AS   trump overtrumped  seat 1   0 + 11 = 11
#     3. 1:7C 0:AC                      seat 0   0 + 11 = 11
#     4. 0:8H 1:7H                      seat 0   0 + 0  =  0
#     5. 0:9H 1:JS   void ♥, trumps     seat 1   0 + 20 = 20
#     6. 1:8D 0:KS   void ♦, trumps     seat 0   0 + 4  =  4
#     7. 0:AH 1:TS   void ♥, trumps     seat 1  11 + 10 = 21
#     8. 1:TC 0:TH   ILLEGAL: seat 0 is void in ♣ but holds QS (must-trump) → seat 1 10+10 = 20
#     9. 1:KD 0:QS   void ♦, trumps     seat 0   4 + 3  =  7, last trick +10
#   card points: seat 0 3+11+0+4+7 = 25 (5 tricks); seat 1 11+20+21+20 = 72 (4 tricks).
#   Before the penalty: seat 0 25 + terz 20 + bella 20 + last 10 = 75; seat 1 72.
#   Неправильный бой, policy penalize, RULES.md §6: seat 1 scores every point of the deal, seat 0
#   (the offender) 0: seat 1 72 + 75 = 147 (card points 25 + 72, terz 20, bella 20, last 10).
#   Байд test (declarer seat 1): 147 > 0 — made. Deal 1 = 0 : 147.
#
# The other deals, by hand in the same way (dealer alternates; first speaker = loser of the last
# deal and leads — seat 0 after deal 1 as before §6; no redeal, no tie, so no hanging pot):
#   2. dealer 1; ♣ by seat 0 ("0 bid play"). seat 0 wins tricks KS/JS 6, AC/JD 13, AH/7H 11,
#      JH/8D 2, 7S/AD 11 = 43 + last 10 = 53; seat 1 TD/QD 13, 8C/7C 0, QS/9S 3, KC/QC 7 = 23.
#      53 > 23 made: 53 : 23.
#   3. dealer 0; ♣ by seat 1; seat 0 swaps 7C for TC. seat 0 wins JC/QC 23, QH/JH 5, JS/7S 2,
#      AD/7D 11, TC/8S 10, KC/TS 14, AH/TD 21, 8H/QS 3 = 89 + 10 = 99; seat 1 9C/8C 14.
#      14 < 99 байд: seat 0 99 + 14 = 113 : 0.
#   4. dealer 1; ♦ by seat 1; seat 0 declares terz J-10-9 ♥ (20, unopposed). seat 0 JC/9C 2,
#      JS/9S 2, JD/QS 23 = 27 + 20 = 47; seat 1 TD/9H 10, TC/7C 10, AD/TH 21, QC/7H 3, 9D/JH 16,
#      8C/AH 11 = 71 + 10 = 81. 81 > 47 made: 47 : 81.
#   5. dealer 0; ♠ by seat 0. seat 0 KD/JD 6, AS/TC 21, 7S/7H 0, 8S/8H 0, TS/8C 10 = 37; seat 1
#      JC/7C 2, TD/9H 10, AH/KH 15, 8D/QC 3 = 30 + 10 = 40. 37 < 40 байд: 0 : 77.
BELOT2_DEALS_BY_HAND = [[0, 147], [53, 23], [113, 0], [47, 81], [0, 77]]
BELOT2_DECLARERS = [1, 0, 1, 1, 0]  # "N bid play" of each deal in the log


def test_belot2_replay_runs_clean(belot2: Run) -> None:
    assert_clean(belot2)
    assert belot2.sheet["game"] == "belot2"
    assert belot2.sheet["options"]["game_type"] == "301"
    assert belot2.sheet["options"]["policy"] == "penalize"


def test_belot2_cards_played_were_read_from_the_overhead_footage(belot2: Run) -> None:
    assert_read_from_the_overhead_footage(belot2, DATA / "belot2")


def test_belot2_first_deal_wrong_play_by_rules_md_section_6(belot2: Run) -> None:
    deal = belot2.sheet["deals"][0]
    assert deal["number"] == 1
    assert deal["points"] == [0, 147]
    assert items(deal) == sorted([
        (0, "card-points", 25), (1, "card-points", 72),
        (0, "combinations", 20), (0, "bella", 20), (0, "last-trick", 10),
        (0, "wrong-play", -75), (1, "wrong-play", 75),
    ])
    whats = {(i["side"], i["rule"]): i["what"] for i in deal["items"]}
    assert "5 tricks" in whats[0, "card-points"]
    assert "4 tricks" in whats[1, "card-points"]
    for side in (0, 1):
        assert sum(i["points"] for i in deal["items"] if i["side"] == side) == deal["points"][side]


def test_belot2_first_deal_illegal_play_is_named_by_rules_md_section_6(belot2: Run) -> None:
    # trick 8: seat 0 played TH on the TC lead while holding the trump QS
    alerts = [line for line in belot2.proc.stderr.splitlines() if line.startswith("alert")]
    assert any("[must-trump]" in line and "0 play TH" in line for line in alerts), alerts
    (play,) = belot2.sheet["deals"][0]["illegal"]
    assert (play["seat"], play["card"], play["trick"], play["rule"], play["outcome"]) == (
        0, "TH", 8, "must-trump", "penalised")
    assert "♣" in play["message"] and "trump" in play["message"]


def test_belot2_every_deal_by_hand(belot2: Run) -> None:
    deals = belot2.sheet["deals"]
    assert [d["number"] for d in deals] == [1, 2, 3, 4, 5]
    assert [d["points"] for d in deals] == BELOT2_DEALS_BY_HAND


def test_belot2_totals_are_the_sum_of_the_deals(belot2: Run) -> None:
    deals = belot2.sheet["deals"]
    for deal in deals:
        for side in (0, 1):
            assert sum(i["points"] for i in deal["items"] if i["side"] == side) \
                == deal["points"][side], deal
    assert belot2.sheet["totals"] == [sum(d["points"][s] for d in deals) for s in (0, 1)]
    # by hand: 0+53+113+47+0 = 213, 147+23+0+81+77 = 328
    assert belot2.sheet["totals"] == [213, 328]


def test_belot2_winner_by_the_end_of_partie_rule(belot2: Run) -> None:
    # Running totals (from the per-deal points): 0:147, 53:170, 166:170, 213:251 — nobody at 301
    # before deal 5; after it 213:328. Deal 5 was declared by seat 0, so seat 1 is the defender
    # and its total is checked first: 328 ≥ 301, seat 1 wins 328 : 213.
    totals = [0, 0]
    winner = None
    for number, (deal, declarer) in enumerate(zip(belot2.sheet["deals"], BELOT2_DECLARERS,
                                                  strict=True), start=1):
        totals = [totals[s] + deal["points"][s] for s in (0, 1)]
        defender = 1 - declarer
        for seat in (defender, declarer):
            if totals[seat] >= 301:
                winner = seat
                break
        if winner is not None:
            assert number == len(belot2.sheet["deals"]), "the partie goes on after its end"
            break
    assert winner == 1
    assert belot2.sheet["finished"] is True
    assert belot2.sheet["winner"] == 1
    assert "328" in belot2.sheet["result"] and "213" in belot2.sheet["result"]


# ============================================================================ durak2
# Options: all default (game_type short, policy retract — RULES.md §6 — no transfer). Seat 1 deals
# the first game, so seat 0 gets shoe 1-3 and 7-9:
#   seat 0: QD AC JS AH TS KD      seat 1: TC KS 6D JC QC JH      13: 6C turned, trump ♣
#   Lowest trump: seat 0 holds AC, seat 1 TC JC QC → seat 1 (10♣) attacks first.
# Bouts (A = attacker, "+x" a throw-in, "take" the defender takes, then the draw):
#    1. 1:TC 0:AC/TC бито; draw 1 JD, 0 9H               2. 0:AH 1 takes; 0 draws KC
#    3. 0:9H 1:AH/9H бито; 0 draws QH                    4. 1:JH 0 takes, +JD +JC; 1 draws 8H 7D AD
#    5. 1:8H 0:JC/8H бито; 1 draws 9C                     6. 0:QD 1 takes, +QH
#    7. 0:TS 1:KS/TS, +KC, 1 takes, +KD; 0 draws TD 7C TH 8. 0:TD 1:QD/TD бито; 0 draws 9S
#    9. 1:QC 0 takes, +QH
#   10. 1:KD 0:7C/KD, then 1 throws in 6D — ILLEGAL: ranks on the table are K and 7 only
#       (throw-in-rank). RULES.md §6: an illegal throw-in is always taken back: seat 1 presses
#       «Отмена» (undo) and throws in KS instead; 0 takes, +7D +KC.
#   11-39. play goes on; in bout 39 seat 1 attacks with its last card, KH, seat 0 takes it with
#       the talon empty: seat 1 has no cards, seat 0 holds 6D 8D 9D TH KH JS.
# Seat 1 is out of cards first: it wins the game, 1 point (durak-win); seat 0 is the durak.
# No point penalty (RULES.md §6), and the illegal throw-in was taken back, so it is not on the
# sheet: totals 0 : 1, seat 1 wins.


def test_durak2_replay_runs_clean(durak2: Run) -> None:
    assert_clean(durak2)
    assert durak2.sheet["game"] == "durak2"
    assert durak2.sheet["options"]["game_type"] == "short"


def test_durak2_cards_played_were_read_from_the_overhead_footage(durak2: Run) -> None:
    """Including every defence laid over the card it beats (``covers``) and the illegal throw-in
    taken back after «Отмена» (a removal of that one card)."""
    assert_read_from_the_overhead_footage(durak2, DATA / "durak2")
    assert any(r["why"] == "taken back" for r in durak2.truth["table"]["removed"])


def test_durak2_default_policy_by_rules_md_section_6(durak2: Run) -> None:
    assert durak2.sheet["options"]["policy"] == "retract"


def test_durak2_whole_game_by_hand(durak2: Run) -> None:
    deals = durak2.sheet["deals"]
    assert len(deals) == 1  # one short game, no redeal (both held a trump)
    game = deals[0]
    assert game["points"] == [0, 1]
    assert items(game) == [(1, "durak-win", 1)]
    notes = " | ".join(game["notes"])
    assert "seat 0 is the durak" in notes
    assert "dealer seat 1" in notes and "6♣" in notes
    assert "first attack: seat 1" in notes and "10♣" in notes


def test_durak2_no_point_penalty_by_rules_md_section_6(durak2: Run) -> None:
    # §6: only the point for going out counts: seat 1 wins 1 : 0, seat 0 is the durak.
    assert durak2.sheet["totals"] == [0, 1]
    assert durak2.sheet["finished"] is True
    assert durak2.sheet["winner"] == 1


def test_durak2_illegal_throw_in_is_alerted_and_taken_back_by_rules_md_section_6(durak2: Run) -> None:
    alerts = [line for line in durak2.proc.stderr.splitlines() if line.startswith("alert")]
    assert any("[throw-in-rank]" in line and "1 play 6D" in line for line in alerts), alerts
    # taken back: it stands nowhere on the sheet
    assert durak2.sheet["deals"][0]["illegal"] == []


# ============================================================================ bazar
# Options default (policy penalize, deal 4+4, target 301). "2 dealer": seat 2 deals; packets of 4
# from the dealer's left (seat 3, 0, 1, then 2), twice:
#   seat 3: KH AS JH 7C | 9C 9D 8D QD        seat 0: TS AH KC 8H | JD KS TD 7H
#   seat 1: KD 8S 7D AC | JS AD QC QH        seat 2: 9H TC 9S 8C | JC QS 7S TH
# Auction from seat 3: 3 "36:BK"; 0 "hand:C+15" (Капо с руки ♣ + 15, before any word of seat 2;
# senior to any normal bid); 1 pass; 2 pass; 3 contra; 0 pass; 2 recontra → the auction ends.
# Contract: pair 0&2, Капо с руки ♣ + 15, Реконтра. Seat 2's cards stay out; tricks of three,
# seat 0 leads. No construction declared; no Бэла (KC with seat 0, QC with seat 1).
# Tricks (trump J20 9 14 A11 10 10 K4 Q3 8/7 0; plain A11 10 10 K4 Q3 J2):
#   1. 0:KC 1:AC 3:9C  trump led, each overtrumps      seat 3  4 + 11 + 14 = 29
#   2. 3:8D 0:JD 1:KD                                  seat 1  0 + 2 + 4   =  6
#   3. 1:AD 3:9D 0:TD                                  seat 1 11 + 0 + 10  = 21
#   4. 1:QC 3:7C 0:KS  7C cannot beat; seat 0 no trump  seat 1  3 + 0 + 4   =  7
#   5. 1:QH 3:JH 0:8H                                  seat 1  3 + 2 + 0   =  5
#   6. 1:7D 3:QD 0:7H  seat 0 void ♦, no trump          seat 3  0 + 3 + 0   =  3
#   7. 3:KH 0:AH 1:JS  seat 1 void ♥, no trump          seat 0  4 + 11 + 2  = 17
#   8. 0:TS 1:8S 3:AS                                  seat 3 10 + 0 + 11  = 21, last trick +10
# висты: pair 0&2 17 (1 trick); pair 1&3 29+6+21+7+5+3+21 = 92 + 10 = 102 (7 tricks).
# (Check: 162 − 10 − seat 2's unplayed TC 10 + JC 20 + QS 3 + TH 10 = 109 = 17 + 92.)
# Outcome: the capot failed at trick 1. N = 25 + 15 = 40; M = 1 (suit) → 4 (Реконтра) → 8
# (Капо с руки doubles). Failed: pair 0&2 scores 0; pair 1&3 M × N + 16 (it did not take every
# trick) + its constructions/10 (none) = 320 + 16 = 336. No висты/10 rounding enters a failed
# contract's score. 336 ≥ 301: pair 1&3 wins the partie after this one deal.


def test_bazar_replay_runs_clean(bazar: Run) -> None:
    assert_clean(bazar)
    assert bazar.sheet["game"] == "bazar"
    assert bazar.sheet["sides"] == ["pair 0 & 2", "pair 1 & 3"]


def test_bazar_cards_played_were_read_from_the_overhead_footage(bazar: Run) -> None:
    """Four seats: the seat of each card is the reader's, from whose hand it was."""
    assert_read_from_the_overhead_footage(bazar, DATA / "bazar")


def test_bazar_deal_by_hand(bazar: Run) -> None:
    deals = bazar.sheet["deals"]
    assert len(deals) == 1
    deal = deals[0]
    assert deal["points"] == [0, 336]
    assert items(deal) == sorted([
        (0, "contract-failed", 0), (1, "contract-failed", 320), (1, "failed-bonus", 16),
    ])
    contract = next(i["what"] for i in deal["items"] if i["side"] == 1
                    and i["rule"] == "contract-failed")
    assert "Капо с руки" in contract and "15" in contract and "Реконтра" in contract
    assert "M 8" in contract and "N 40" in contract
    # висты per pair and tricks, from the notes
    vists = {}
    for note in deal["notes"]:
        m = re.search(r"висты of pair (\d) & (\d): .*= (\d+) \((\d+) tricks?\)", note)
        if m:
            vists[int(m[1])] = (int(m[3]), int(m[4]))
    assert vists == {0: (17, 1), 1: (102, 7)}
    assert any("cards 92" in n and "last trick 10" in n for n in deal["notes"])


def test_bazar_partie_ends_after_the_deal(bazar: Run) -> None:
    assert bazar.sheet["totals"] == [0, 336]
    assert bazar.sheet["finished"] is True
    assert bazar.sheet["winner"] == 1


# ============================================================================ bad input
def assert_refused(proc: subprocess.CompletedProcess[str], *needles: str) -> str:
    """Exit status 2, no traceback, and exactly one line of our own on stderr: ``error: ...``."""
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 2, proc.stderr
    ours = [line for line in proc.stderr.splitlines() if line and not LIBAV_LINE.match(line)]
    assert len(ours) == 1, proc.stderr
    assert ours[0].startswith("error: "), proc.stderr
    for needle in needles:
        assert needle in ours[0], ours[0]
    assert proc.stdout == ""
    return ours[0]


def copy_bundle(tmp_path: Path, name: str = "belot2", *, shoe: bool = True) -> Path:
    """The bundle copied to tmp_path/NAME, with the deck profile its parent folder shares."""
    dest = tmp_path / name
    if shoe:
        shutil.copytree(DATA / name, dest)
    else:
        dest.mkdir()
        for part in ("game.json", "shoe.times.json", "inputs.jsonl"):
            shutil.copy(DATA / name / part, dest / part)
    shutil.copy(DATA / "deck.json", tmp_path / "deck.json")
    return dest


def break_line(path: Path, number: int, text: str) -> None:
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[number - 1] = text + "\n"
    path.write_text("".join(lines), encoding="utf-8")


@pytest.mark.parametrize("what", ["empty folder", "stray files", "missing folder"])
def test_replay_of_a_folder_that_is_not_a_bundle(tmp_path: Path, what: str) -> None:
    folder = tmp_path / "not-a-bundle"
    if what != "missing folder":
        folder.mkdir()
    if what == "stray files":
        (folder / "notes.txt").write_text("hello\n", encoding="utf-8")
        (folder / "shoe.mp4").write_bytes(b"")
    assert_refused(replay(folder, "--json", "--no-progress"), str(folder))


def test_replay_names_the_malformed_inputs_line(tmp_path: Path) -> None:
    bundle = copy_bundle(tmp_path)
    inputs = bundle / "inputs.jsonl"
    break_line(inputs, 5, '{"t": 15.15, "seat": 0, "button": ')  # cut short: not JSON
    assert_refused(replay(bundle, "--json", "--no-progress"), f"{inputs}:5:")


@pytest.mark.parametrize("line", ['[15.15, 0, "confirm"]', '{"seat": 0, "button": "confirm"}',
                                  '{"t": "soon", "seat": 0, "button": "confirm"}'])
def test_replay_names_an_input_line_that_is_json_but_not_an_input(tmp_path: Path,
                                                                   line: str) -> None:
    bundle = copy_bundle(tmp_path, shoe=False)
    (bundle / "shoe.mp4").write_bytes(b"")  # the inputs are read before the video
    break_line(bundle / "inputs.jsonl", 5, line)
    assert_refused(replay(bundle, "--json", "--no-progress"), f"{bundle / 'inputs.jsonl'}:5:")


def test_replay_schema_error_in_inputs_is_one_line(tmp_path: Path) -> None:
    bundle = copy_bundle(tmp_path, shoe=False)
    (bundle / "shoe.mp4").write_bytes(b"")
    break_line(bundle / "inputs.jsonl", 5, '{"t": 15.15, "seat": 0, "button": "fly"}')
    assert_refused(replay(bundle, "--json", "--no-progress"), f"{bundle / 'inputs.jsonl'}:5:")


@pytest.mark.parametrize("shoe", ["random bytes", "truncated", "empty"])
def test_replay_of_a_broken_shoe_video(tmp_path: Path, shoe: str) -> None:
    bundle = copy_bundle(tmp_path, shoe=False)
    video = bundle / "shoe.mp4"
    if shoe == "random bytes":
        video.write_bytes(os.urandom(64 * 1024))
    elif shoe == "truncated":
        video.write_bytes((DATA / "belot2" / "shoe.mp4").read_bytes()[:200_000])
    else:
        video.write_bytes(b"")
    assert_refused(replay(bundle, "--json", "--no-progress"), str(video))


@pytest.mark.parametrize("extra", [[], ["--game", "belot2"]])
def test_replay_shoe_without_deck(tmp_path: Path, extra: list[str]) -> None:
    line = assert_refused(replay("--shoe", tmp_path / "x.mp4", *extra, "--json",
                                 "--no-progress"))
    assert "--deck" in line


# Bad bundles, each of which once ended in a traceback (exit status 1).
BAD_BUNDLES = {
    "inputs not UTF-8": ("inputs.jsonl", None, "UnicodeDecodeError from Path.read_text in "
                         "load_inputs (only OSError is caught)"),
    "game.json without game": ("game.json", '{"options": {}}', "KeyError: 'game' in load_bundle"),
    "game.json not an object": ("game.json", "[]", "TypeError in load_bundle"),
    "unknown game": ("game.json", '{"game": "nope"}', "UnknownGameError escapes from "
                     "Controller.new_game in cmd_replay"),
    "bad option": ("game.json", '{"game": "belot2", "options": {"game_type": "999"}}',
                   "SettingsError escapes from Controller.new_game in cmd_replay"),
    "frame times not numbers": ("shoe.times.json", '["x"]', "ValueError from float() in "
                                "load_bundle"),
}


@pytest.mark.parametrize("case", list(BAD_BUNDLES))
def test_replay_of_a_bad_bundle_file(tmp_path: Path, case: str) -> None:
    part, text, _ = BAD_BUNDLES[case]
    bundle = copy_bundle(tmp_path, shoe=False)
    (bundle / "shoe.mp4").write_bytes(b"")
    if text is None:
        with (bundle / part).open("ab") as f:
            f.write(b'\xff\xfe{"t": 99, "kind": "removed"}\n')
    else:
        (bundle / part).write_text(text + "\n", encoding="utf-8")
    assert_refused(replay(bundle, "--json", "--no-progress"))

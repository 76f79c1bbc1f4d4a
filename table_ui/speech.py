"""Spoken announcements: the trump named, an illegal play, each deal's score (off by default).

Why this shape: a :class:`Speaker` is one more listener of the controller's public state (like
the display hub). It only *decides* what to say — by comparing each snapshot with the last one
it saw — and words it with the message catalogue (:mod:`table_ui.i18n`, Russian by default).
Speaking is a sink's job: :class:`EspeakSink` runs the offline engine ``espeak-ng`` in its own
thread behind a small queue (old phrases are dropped when the table outpaces the voice), so the
controller's thread never waits for audio; :class:`WavSink` writes each phrase to a WAV file
(``espeak-ng -w``), for tests and for checking the voice without speakers.

``create_app(ctl, speech=True)`` turns it on (``speech=`` may also be a sink or a Speaker).
"""

from __future__ import annotations

import collections
import logging
import queue
import shutil
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from controller.public import AlertView, PublicState
from engine.view import DealLine
from table_ui import i18n

log = logging.getLogger("cardtable.table_ui")

ESPEAK = "espeak-ng"
QUEUE_SIZE = 4  # phrases waiting for the voice; the oldest is dropped beyond this
VOICES = {"ru": "ru", "en": "en"}


def espeak_available(command: str = ESPEAK) -> bool:
    return shutil.which(command) is not None


class Sink(Protocol):
    def say(self, text: str) -> None: ...

    def close(self) -> None: ...


class ListSink:
    """Keeps the phrases (tests, or a sink for a display that speaks by itself)."""

    def __init__(self) -> None:
        self.said: list[str] = []

    def say(self, text: str) -> None:
        self.said.append(text)

    def close(self) -> None:
        pass


class _QueuedSink:
    """A worker thread behind a bounded queue: ``say`` never blocks; a full queue drops the
    oldest phrase (it is stale by the time the voice would get to it)."""

    def __init__(self, size: int = QUEUE_SIZE) -> None:
        self._queue: queue.Queue[str | None] = queue.Queue(maxsize=size)
        self._lock = threading.Lock()
        self.dropped = 0
        self.done = 0
        self.failed = 0
        self._thread = threading.Thread(target=self._work, name=type(self).__name__, daemon=True)
        self._thread.start()

    def say(self, text: str) -> None:
        with self._lock:
            while True:
                try:
                    self._queue.put_nowait(text)
                    return
                except queue.Full:
                    try:
                        self._queue.get_nowait()
                        self._queue.task_done()
                        self.dropped += 1
                    except queue.Empty:
                        pass

    def _work(self) -> None:
        while True:
            text = self._queue.get()
            try:
                if text is None:
                    return
                self._speak(text)
                self.done += 1
            except Exception:  # a broken voice must never stop anything else
                self.failed += 1
                log.exception("speech failed: %r", text)
            finally:
                self._queue.task_done()

    def _speak(self, text: str) -> None:
        raise NotImplementedError

    def wait(self, timeout: float = 30.0) -> bool:
        """Wait until every queued phrase is spoken (tests); False on timeout."""
        deadline = time.monotonic() + timeout
        while self._queue.unfinished_tasks:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.02)
        return True

    def close(self) -> None:
        with self._lock:
            while True:
                try:
                    self._queue.put_nowait(None)
                    break
                except queue.Full:
                    try:
                        self._queue.get_nowait()
                        self._queue.task_done()
                    except queue.Empty:
                        pass
        self._thread.join(5)


class EspeakSink(_QueuedSink):
    """Speaks through ``espeak-ng -v <voice>`` (offline), one phrase at a time."""

    def __init__(self, voice: str = "ru", *, command: str = ESPEAK, speed: int = 150,
                 size: int = QUEUE_SIZE, timeout: float = 30.0) -> None:
        self.voice, self.command, self.speed, self.timeout = voice, command, speed, timeout
        super().__init__(size)

    def _argv(self, text: str) -> list[str]:
        return [self.command, "-v", self.voice, "-s", str(self.speed), "--", text]

    def _speak(self, text: str) -> None:
        subprocess.run(self._argv(text), check=True, timeout=self.timeout,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


class WavSink(EspeakSink):
    """Writes each phrase to ``folder/NNN.wav`` with ``espeak-ng -w`` (tests; no speakers)."""

    def __init__(self, folder: Path | str, voice: str = "ru", **kw: Any) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.files: list[Path] = []
        self._n = 0
        super().__init__(voice, **kw)

    def _speak(self, text: str) -> None:
        self._n += 1
        path = self.folder / f"{self._n:03d}.wav"
        argv = self._argv(text)
        subprocess.run([*argv[:-2], "-w", str(path), *argv[-2:]], check=True,
                       timeout=self.timeout, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.files.append(path)


class Speaker:
    """Decides from each public-state snapshot what to announce and hands it to the sink.

    Announced: a trump that became known or changed, every new alert of level ``illegal``, and
    every new line of ``view["deals"]`` (with the totals). The first snapshot (``attach``) only
    primes it: a restart or a newly attached speaker does not repeat old news.
    """

    def __init__(self, sink: Sink, lang: str = i18n.DEFAULT_LANG, history: int = 100) -> None:
        self.sink = sink
        self.lang = i18n.lang_of(lang)
        self.T = i18n.catalogue(self.lang)
        self.spoken: collections.deque[str] = collections.deque(maxlen=history)
        self._game: Any = object()
        self._trump: str | None = None
        self._deals = 0
        self._alert_seq = -1
        self._primed = False
        self._lock = threading.Lock()

    # -- wiring ---------------------------------------------------------------------------------
    def attach(self, controller: Any) -> Callable[[], None]:
        """Subscribe to the controller (primed with its current state); returns unsubscribe."""
        self.prime(controller.public())
        unsubscribe: Callable[[], None] = controller.subscribe(self)
        return unsubscribe

    def prime(self, state: PublicState) -> None:
        with self._lock:
            self._remember(state)
            self._primed = True

    def __call__(self, state: PublicState) -> None:
        """The controller's listener: quick (deciding and queueing only)."""
        for text in self.decide(state):
            self.spoken.append(text)
            self.sink.say(text)

    # -- deciding -------------------------------------------------------------------------------
    def _remember(self, state: PublicState) -> None:
        view = state.view
        self._game = state.game_id
        self._trump = view.trump if view else None
        self._deals = len(view.deals) if view else 0
        seqs = [a.seq for a in state.alerts]
        self._alert_seq = max(seqs, default=self._alert_seq if self._primed else -1)

    def decide(self, state: PublicState) -> list[str]:
        """The phrases this snapshot calls for (and remember it)."""
        with self._lock:
            if not self._primed:
                self._remember(state)
                self._primed = True
                return []
            view = state.view
            out: list[str] = []
            if state.game_id != self._game:  # a new game: all its news is new
                self._game, self._trump, self._deals = state.game_id, None, 0
            for a in state.alerts:
                if a.seq > self._alert_seq and a.level == "illegal":
                    out.append(self.illegal_phrase(state, a))
            self._alert_seq = max([self._alert_seq, *(a.seq for a in state.alerts)])
            trump = view.trump if view else None
            if trump and trump != self._trump:
                out.append(self.trump_phrase(trump))
            self._trump = trump
            deals = view.deals if view else []
            if len(deals) > self._deals:
                out.extend(self.deal_phrase(state, d, i == len(deals) - 1)
                           for i, d in enumerate(deals) if i >= self._deals)
            self._deals = len(deals)
            return out

    # -- wording --------------------------------------------------------------------------------
    def _fmt(self, key: str, **kw: Any) -> str:
        text: str = self.T[key]
        return text.format(**kw)

    def trump_phrase(self, trump: str) -> str:
        if trump in self.T["suits"]:
            return self._fmt("say_trump", suit=self.T["suits"][trump])
        return self._fmt("all_trump" if trump == "all" else "say_no_trump")

    def _seat(self, state: PublicState, seat: int) -> str:
        names = state.names
        return names[seat] if 0 <= seat < len(names) and names[seat] else self._fmt(
            "seat", n=seat + 1)

    def illegal_phrase(self, state: PublicState, alert: AlertView) -> str:
        if alert.seat is not None:
            return self._fmt("say_illegal_by", name=self._seat(state, alert.seat))
        return self._fmt("say_illegal")

    def side_names(self, state: PublicState) -> list[str]:
        view = state.view
        n, sides = (view.num_seats, view.sides) if view else (0, [])
        if len(sides) == n:
            return [self._seat(state, i) for i in range(n)]
        if len(sides) * 2 == n:
            joiner = self._fmt("say_and")
            return [f"{self._seat(state, i)} {joiner} {self._seat(state, i + len(sides))}"
                    for i in range(len(sides))]
        return [self._fmt("side", n=i + 1) for i in range(len(sides))]

    def deal_phrase(self, state: PublicState, deal: DealLine, last: bool) -> str:
        names = self.side_names(state)
        points = ", ".join(f"{names[i] if i < len(names) else i + 1} {p}"
                           for i, p in enumerate(deal.points))
        text = self._fmt("say_deal", n=deal.number, points=points)
        totals = state.view.totals if state.view else []
        if last and totals:
            text += " " + self._fmt("say_totals", points=", ".join(
                f"{names[i] if i < len(names) else i + 1} {t}" for i, t in enumerate(totals)))
        return text


def make_speaker(speech: Any, lang: str) -> Speaker | None:
    """``create_app``'s ``speech=``: False/None → off, True → espeak-ng in the table's language,
    a sink → a Speaker over it, a Speaker → itself."""
    if speech is None or speech is False:
        return None
    if isinstance(speech, Speaker):
        return speech
    if speech is True:
        if not espeak_available():
            log.warning("speech is on but %s is not installed: nothing will be spoken", ESPEAK)
            return Speaker(ListSink(), lang)
        return Speaker(EspeakSink(VOICES.get(lang, "ru")), lang)
    return Speaker(speech, lang)

"""Every rule id an alert can carry, worded for the display: Russian first, and English.

Why here: the engine and the controller name what went wrong by a stable id (``Verdict.rule``,
``EngineError.rule``, the controller's alert kinds) and say it in an English sentence for logs
and developers; what a player or organiser reads is worded here, from the id and the alert's
parameters, so the room's display is Russian whatever the sentence said.
``tests/test_rule_texts.py`` finds every id in the engine's and controller's source and fails on
one without words here.

Placeholders: ``{who}`` the seat's player (their name, or «место N»), ``{card}`` a card in the
display's card style (Д♠), ``{button}`` a panel button, ``{flag}`` a camera's note, ``{n}`` a
count. The display leaves out a placeholder it has no value for.
"""

from __future__ import annotations

# rule id -> (Russian, English)
TEXTS: dict[str, tuple[str, str]] = {
    # -- illegal plays: the engine records them and the table flags them ------------------------
    "follow-suit": ("{who}: {card} — нужно было ходить в масть", "{who}: {card} — had to follow suit"),
    "must-trump": ("{who}: {card} — нужно было бить козырем", "{who}: {card} — had to trump"),
    "overtrump": ("{who}: {card} — нужно было перебить козырем старше",
                  "{who}: {card} — had to overtrump"),
    "want-highest": ("{who}: {card} — джокер потребовал старшую карту масти",
                     "{who}: {card} — the joker asked for the highest card of the suit"),
    "beat": ("{who}: {card} не бьёт эту карту", "{who}: {card} does not beat that card"),
    "throw-in-rank": ("{who}: {card} — подкидывать можно только карты того же достоинства, что "
                      "на столе", "{who}: {card} — only ranks already on the table may be thrown in"),
    "bout-cap": ("{who}: {card} — в этот ход больше карт подкинуть нельзя",
                 "{who}: {card} — no more cards may be thrown in this bout"),
    "transfer": ("{who}: {card} — перевести сейчас нельзя", "{who}: {card} — no transfer now"),
    "transfer-cap": ("{who}: {card} — перевод: у защищающегося не хватит карт",
                     "{who}: {card} — transfer: the defender would not have enough cards"),
    "false-declaration": ("{who}: объявлена комбинация, которой нет на руке",
                          "{who}: declared a combination not in the hand"),
    "illegal-play": ("{who}: {card} — ход против правил", "{who}: {card} — an illegal play"),
    # -- what the rules refuse outright (nothing is recorded) ----------------------------------
    "engine": ("правила не принимают этот ход", "the rules refuse this"),
    "unknown-card": ("такой карты нет", "no such card"),
    "card-dealt-twice": ("{card} уже вышла из шуза в этой сдаче",
                         "{card} already came out of the shoe in this deal"),
    "out-of-turn": ("{who}: сейчас не ваш ход", "{who}: not your turn"),
    "card-not-in-hand": ("{who}: {card} нет на руке", "{who}: {card} is not in the hand"),
    "bid-not-allowed": ("{who}: такой заказ сейчас невозможен", "{who}: no such bid now"),
    "not-allowed-now": ("сейчас это невозможно", "not possible now"),
    "bad-event": ("ввод не понят", "the input was not understood"),
    "bad-record": ("запись игры не читается", "the game record cannot be read"),
    "bad-setting": ("такое правило стола невозможно", "no such house rule"),
    "unknown-game": ("такой игры нет", "no such game"),
    "bad-names": ("имена игроков не приняты", "the players' names were refused"),
    "playout-stuck": ("сдачу не удаётся доиграть автоматически", "the deal cannot be played out"),
    "joker-mode": ("{who}: скажите, как играет джокер", "{who}: say how the joker is played"),
    "bad-seat": ("такого места нет", "no such seat"),
    "bad-bid": ("заказ не понят", "the bid was not understood"),
    "bad-claim": ("{who}: нельзя заявить нарушение на свой ход",
                  "{who}: a player cannot claim their own play"),
    "bad-fix": ("исправить можно только карты, заказы и ходы",
                "only cards, bids and plays can be corrected"),
    "game-over": ("игра окончена", "the game is over"),
    "shoe-not-expected": ("карта из шуза не ожидалась: сдача окончена, сейчас — {phase}",
                          "a card came out of the shoe, but the deal is complete: now {phase}"),
    "not-auction": ("торговля уже закончена", "the auction is over"),
    "not-play": ("сейчас не розыгрыш", "not the play now"),
    "card-not-in-deck": ("{card} нет в колоде этой игры", "{card} is not in this game's deck"),
    "after-contra": ("после контры — только реконтра или пас", "after contra: recontra or pass"),
    "already-confirmed": ("{who}: счёт сдачи уже подтверждён", "{who}: the deal's score is confirmed"),
    "answer-declaration": ("{who}: сначала ответьте на объявление",
                           "{who}: answer the declaration first"),
    "asked-same-length": ("{who}: бить можно только комбинацией той же длины",
                          "{who}: only a group of the same length beats it"),
    "bid-above-cap": ("{who}: заказ выше допустимого", "{who}: the bid is above the cap"),
    "bid-below-minimum": ("{who}: заказ ниже минимального", "{who}: the bid is below the minimum"),
    "bid-not-senior": ("{who}: заказ должен быть старше предыдущего",
                       "{who}: the bid must be senior to the last"),
    "bela": ("{who}: бэлу объявляют с дамой или королём козырей",
             "{who}: bela is announced with the trump queen or king"),
    "bella": ("{who}: бэла уже объявлена", "{who}: bela is already announced"),
    "claim": ("«Партия!» сейчас не заявить", "«Партия!» cannot be claimed now"),
    "claim-not-used": ("заявки нарушений не действуют при этих правилах",
                       "claims are off under these house rules"),
    "claim-too-late": ("{who}: счёт подтверждён, заявлять поздно",
                       "{who}: the score is confirmed: too late to claim"),
    "confirm": ("подтверждать сейчас нечего", "nothing to confirm now"),
    "contra": ("{who}: контра сейчас невозможна", "{who}: no contra now"),
    "contra-wrong-pair": ("{who}: контру говорит другая пара", "{who}: contra is the other pair's"),
    "recontra": ("{who}: реконтра сейчас невозможна", "{who}: no recontra now"),
    "raise-same-game": ("{who}: свою же игру можно только пропустить или сказать контру",
                        "{who}: pass or contra: this game is your pair's"),
    "three-passes": ("после трёх пасов — только заказ или контра",
                     "after three passes: a bid or contra"),
    "kapo-hand": ("{who}: капо заказывают до того, как сказал партнёр",
                  "{who}: kapo is bid before the partner speaks"),
    "dealer": ("{who}: этот заказ за сдающим", "{who}: this bid is the dealer's"),
    "dealer-total": ("{who}: сдающий не может заказать столько, чтобы сумма заказов сошлась",
                     "{who}: the dealer may not make the bids add up"),
    "declarations-closed": ("объявления в этой сдаче закрыты", "declarations are closed in this deal"),
    "declare": ("{who}: эта комбинация уже объявлена", "{who}: that combination is declared"),
    "declare-too-late": ("{who}: объявлять уже поздно", "{who}: too late to declare"),
    "declare-when": ("{who}: комбинации объявляют на первой взятке",
                     "{who}: combinations are announced in the first trick"),
    "declared-twice": ("{who}: эта комбинация уже объявлена", "{who}: declared twice"),
    "does-not-beat": ("{who}: эта комбинация не старше", "{who}: that group does not beat it"),
    "foul": ("нарушение записано", "a foul is recorded"),
    "group-inside-scored": ("{who}: эта комбинация уже засчитана в другой",
                            "{who}: the group is already scored inside another"),
    "marriage-cannot-beat": ("{who}: мариаж не бьёт комбинацию", "{who}: a marriage beats no group"),
    "marriage-scored": ("{who}: мариаж уже засчитан", "{who}: the marriage is scored"),
    "no-bout": ("ход ещё не начался: сначала зайдите картой", "no bout yet: lead a card first"),
    "no-claims": ("заявки нарушений не действуют при этих правилах",
                  "claims are off under these house rules"),
    "no-target": ("{who}: {card} — отбивать нечего", "{who}: {card} — nothing to beat"),
    "not-a-construction": ("{who}: это не комбинация", "{who}: not a combination"),
    "not-a-group": ("{who}: это не комбинация", "{who}: not a group"),
    "not-beaten": ("ещё не всё отбито: защищающийся бьёт или берёт",
                   "not everything is beaten: the defender beats or takes"),
    "nothing-to-answer": ("{who}: отвечать не на что", "{who}: nothing to answer"),
    "nothing-to-claim": ("заявлять нечего", "nothing to claim"),
    "nothing-to-take": ("брать нечего", "nothing to take"),
    "one-declaration-a-lead": ("{who}: одно объявление на заход", "{who}: one declaration a lead"),
    "retract-pending": ("сначала верните неправильную карту", "take the illegal card back first"),
    "score-step": ("подтвердите счёт сдачи", "confirm the deal's score"),
    "seven-swap": ("{who}: козырную семёрку меняют до своего первого хода",
                   "{who}: the trump seven is swapped before one's first play"),
    "swap-gone": ("{who}: менять уже нечего", "{who}: nothing left to swap"),
    "swap-seven-only": ("{who}: менять можно только козырную семёрку",
                        "{who}: only the trump seven is swapped"),
    "taking": ("{who} берёт: карты со стола забирают, а не бьют",
               "{who} takes: the cards are taken, not beaten"),
    "transfer-off": ("перевод в этой игре выключен", "transfers are off in this game"),
    "trump-not-now": ("{who}: козырь сейчас не назначают", "{who}: no trump is named now"),
    "trump-settled": ("козырь уже известен", "the trump is settled"),
    "trump-too-early": ("{who}: козырь называют после первых трёх карт",
                        "{who}: trump is named after the first three cards"),
    "nothing-to-undo": ("отменять нечего", "nothing to undo"),
    # -- the table's own alerts (controller) ----------------------------------------------------
    "bad-confirmation": ("{card} не подходит: эта карта сейчас не может выйти",
                         "{card} cannot be the card now"),
    "button-not-allowed": ("{who}: кнопка {button} сейчас не действует",
                           "{who}: {button} does nothing now"),
    "card-dismissed": ("ожидавшая подтверждения карта снята", "the card waiting was dismissed"),
    "choose": ("{who}: как играет {card}? (вверх/вниз, подтвердить)",
               "{who}: how is {card} played? (up/down, confirm)"),
    "choose-first": ("сначала выберите, как играет карта", "first choose how the card is played"),
    "confirm-card": ("подтвердите карту — ждём организатора", "confirm the card: the organiser"),
    "confirm-first": ("сначала подтвердите карту", "confirm the waiting card first"),
    "device-lost": ("{device}: нет связи или нет кадров", "{device}: lost or stalled"),
    "game-ended": ("игра закончена организатором", "the organiser ended the game"),
    "internal-error": ("ввод не обработан: ошибка программы", "the input could not be handled"),
    "log-not-writable": ("журнал не записывается: ходы ждут", "the log cannot be written: held"),
    "no-seat": ("кнопка без места", "a button without a seat"),
    "no-such-seat": ("такого места в этой игре нет", "no such seat in this game"),
    "nothing-to-choose": ("{who}: выбирать нечего", "{who}: nothing to choose"),
    "nothing-to-confirm": ("подтверждать нечего", "nothing to confirm"),
    "play-not-expected": ("{who} положил(а) карту, но сейчас не ход",
                          "{who} put down a card, but no play is due"),
    "result-confirmed": ("{who} подтверждает результат", "{who} confirms the result"),
    "shoe-after-game": ("карта вышла из шуза после конца игры",
                        "a card came out of the shoe after the game"),
    "shoe-obstruction": ("в окне шуза не карта", "something that is not a card is in the shoe"),
    "trick-not-complete": ("карты убраны до конца взятки", "cards were taken before the trick ended"),
    "camera-shoe": ("камера шуза: {flag}", "shoe camera: {flag}"),
    "camera-table": ("камера стола: {flag}", "table camera: {flag}"),
}

# a camera's notes (vision.cards.ReaderFlag values) -> (Russian, English)
FLAGS: dict[str, tuple[str, str]] = {
    "obstruction": ("в окне не карта", "something in the window"),
    "index not seen": ("индекс карты не виден", "index not seen"),
    "not a known card face": ("незнакомая карта", "not a known card face"),
    "shoe geometry changed, teach again or recalibrate":
        ("шуз сдвинут: обучите колоду заново", "the shoe moved: teach the deck again"),
    "deck not verified: confirm every card the reader is unsure of":
        ("колода не проверена: подтверждайте сомнительные карты",
         "deck not verified: confirm unsure cards"),
    "two cards at once from one seat": ("две карты сразу от одного места",
                                        "two cards at once from one seat"),
    "removed before the trick was complete": ("карты убраны до конца взятки",
                                              "removed before the trick was complete"),
    "only some of the cards were taken": ("убраны не все карты", "only some cards were taken"),
    "no candidates left for any seat": ("ни у кого нет такой карты", "no seat holds such a card"),
    "looks like a card no seat holds": ("похоже на карту, которой ни у кого нет",
                                        "looks like a card no seat holds"),
    "card outside any seat zone": ("карта вне зон мест", "a card outside every seat zone"),
    "camera moved: reading paused until the markers are back in place":
        ("камера сдвинута: чтение ждёт, пока метки вернутся на место",
         "the camera moved: reading waits for the markers"),
    "camera back in place: reading again": ("камера на месте, чтение продолжается",
                                            "camera back in place"),
    "black frame: the camera sees nothing": ("чёрный кадр: камера ничего не видит",
                                             "black frame: the camera sees nothing"),
    "glare: the frame is blown out": ("блик: кадр засвечен", "glare: the frame is blown out"),
    # the table camera silent while hands are busy (vision.table.reader.Silence): the likely cause
    "silent-camera-moved": ("ничего не прочитано: камера или метки сдвинулись",
                            "nothing read: the camera or the markers moved"),
    "silent-bad-frame": ("ничего не прочитано: кадр чёрный или засвечен",
                         "nothing read: the frames are black or blown out"),
    "silent-size": ("ничего не прочитано: на стол ложится что-то белое {seen} см, а карты здесь "
                    "{size} см — верен ли размер меток?",
                    "nothing read: white {seen} cm things settle, cards here are {size} cm: "
                    "the markers' size?"),
    "silent-no-face": ("ничего не прочитано: карты видны, но не похожи на колоду — обучена ли "
                       "колода?", "nothing read: cards seen, unlike the deck: is it taught?"),
    "silent-dull": ("ничего не прочитано: на стол ложится не белое — сукно или свет? Проверьте "
                    "стол", "nothing read: what settles is not white: the cloth or the light? "
                    "Check the table"),
    "silent-hands": ("ничего не прочитано, хотя руки над столом — проверьте стол",
                     "nothing read although hands are over the table: check the table"),
}


# the table's devices by the names the controller gives them (``panel ID`` is said as a panel)
DEVICES: dict[str, tuple[str, str]] = {
    "camera shoe": ("камера шуза", "shoe camera"),
    "camera table": ("камера стола", "table camera"),
    "deck": ("колода", "deck"),
    "panel": ("пульт", "panel"),
}


def catalogue(lang: str) -> dict[str, dict[str, str]]:
    """The ``rules``, ``flags`` and ``devices`` sections of a page catalogue
    (``table_ui.i18n``)."""
    k = 1 if lang == "en" else 0
    return {"rules": {r: t[k] for r, t in TEXTS.items()},
            "flags": {f: t[k] for f, t in FLAGS.items()},
            "devices": {d: t[k] for d, t in DEVICES.items()}}

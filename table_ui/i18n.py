"""The message catalogue of the web pages (Russian by default, English with ``?lang=en``).

Why one catalogue: the pages carry no words of their own; they fetch ``/api/i18n/{lang}`` and
look every label up here, so a translation is one dictionary, checked by a test to have the same
keys in every language.
"""

from __future__ import annotations

from typing import Any

from engine.registry import available_games, game_class
from engine.settings import is_seat
from table_ui import rule_texts
from table_ui.sheet_texts import SHEET_LINES

DEFAULT_LANG = "ru"

CATALOGUE: dict[str, dict[str, Any]] = {
    "ru": {
        "lang": "ru",
        "seat": "место {n}",
        "seat_unset": {"joker:first_dealer": "тузование", "bazar:first_dealer": "жребий"},
        "side": "сторона {n}",
        "rules_default": "правила по умолчанию",
        "rules": "правила",
        "trump": "козырь",
        "no_trump": "без козыря",
        "all_trump": "все масти козырные",
        "trump_unknown": "козырь ещё не известен",
        "contract": "контракт",
        "deal": "раздача {n}",
        "turn": "ходит",
        "dealing": "раздача из шуза",
        "deal_why": "сдача {n}: {why}",
        "dealer_legend": "● сдаёт {name}",
        "decl_bella": "бэла",
        "decl_runs": {"3": "терц", "4": "пятьдесят"},
        "decl_run_n": "{n} подряд",
        "decl_points": "объявлено на {n}",
        "decl_asking": "{name} ({n}) — от чего?",
        "deal_fouls": "нарушения в этой сдаче",
        "deals": "сдаёт {name}",
        "deal_to": "{cards} → {name}",
        "deal_self": "{cards} себе",
        "card_forms": ["карта", "карты", "карт"],
        "face_trump": "открыть козырь",
        "face_open": "открыть вторую карту",
        "ace_draw": "тузование: открытая карта → {name}",
        "ace_draw_centre": "тузование: первая карта — в центр",
        "draws": "{name} добирает: {cards}",
        "cards": "карт: {n}",
        "trick": "взятка",
        "outcomes": {"penalised": "штраф", "claimed": "заявлено, штраф", "let go": "не заявлено"},
        "declarations": "объявления",
        "score": "счёт",
        "deal_col": "№",
        "total": "итого",
        "events": "события",
        "footage": "видео",
        "games": {"belot2": "Белот вдвоём", "durak2": "Дурак вдвоём", "joker": "Джокер",
                  "bazar": "Базар-Белот", "terz": "Терц"},
        "chart": "ход партии",
        "no_game": "Игра не начата",
        "no_game_hint": "Организатор начинает игру на странице /admin",
        "over": "Игра окончена",
        "winner": "Победитель: {name}",
        "final_score": "счёт {score}",
        "confirm_card": "Подтвердите карту — ждём организатора",
        "log_error": "Журнал не записывается: {msg}",
        "illegal": "Нарушение",
        "offline": "нет связи с сервером — переподключение…",
        "abandoned": "игра прервана организатором",
        "suits": {"C": "трефы", "D": "бубны", "H": "черви", "S": "пики"},
        "ranks": {"A": "Т", "K": "К", "Q": "Д", "J": "В", "T": "10"},
        "joker": "Дж",
        # the house-rule settings' names, help and choice words: SETTING_* below
        "values": {"true": "да", "false": "нет", "penalize": "штраф", "retract": "вернуть",
                   "on_claim": "по заявке", "short": "короткая", "super_short": "сверхкороткая"},
        # history
        "history": "История игр",
        "dealer_card": "Карточка сдающего (печать)",
        "col_id": "№", "col_game": "игра", "col_date": "дата", "col_status": "статус",
        "col_totals": "счёт", "col_players": "игроки", "col_files": "файлы",
        "status_active": "идёт", "status_finished": "окончена", "status_abandoned": "прервана",
        "sheet": "лист счёта",
        "record": "запись", "csv": "таблица", "json": "данные", "no_games": "Игр ещё не было",
        "back": "← табло",
        # admin
        "admin": "Организатор",
        "pin": "PIN-код",
        "login": "Войти",
        "logout": "Выйти",
        "bad_pin": "Неверный PIN",
        "too_many": "Слишком много попыток — подождите минуту",
        "new_game": "Новая игра",
        "game": "Игра",
        "players": "Игроки",
        "start": "Начать игру",
        "pending": "Карта ждёт подтверждения",
        "pending_none": "Нет карт для подтверждения",
        "candidates": "Варианты",
        "card_code": "Код карты (напр. QS, TH)",
        "confirm": "Подтвердить",
        "skip": "Пропустить карту",
        "undo": "Отменить последнее",
        "raw_event": "Событие движка",
        "raw_event_hint": "напр. «2 bid hand:BK+8»",
        "send": "Отправить",
        "end_game": "Закончить игру",
        "end_game_sure": "Закончить текущую игру?",
        "status": "Состояние стола",
        "devices_h": "Устройства",
        "no_devices": "нет сведений",
        "log_seq": "запись {n}",
        "log": "Журнал",
        "log_ok": "пишется",
        "clients": "табло подключено",
        "done": "Готово",
        "error": "Ошибка",
        "current": "Сейчас",
        "to_act": "ходит",
        "default": "по умолчанию",
        # the table check (controller/table_check.py)
        "demo_no_new_game": "Демонстрация: стол воспроизводит записанные партии, новая игра "
                            "здесь не начинается. Новые игры — на настоящем столе.",
        "check_h": "Проверка стола",
        "check_help": "Положите названные карты по одной в зону каждого места (первая — месту 1), "
                      "оставьте на 2–3 секунды и уберите. Только до начала игры или после её конца.",
        "check_cards": "Карты по местам",
        "check_cards_hint": "AS,AH,AD,AC",
        "check_seconds": "секунд",
        "check_start": "Начать проверку",
        "check_idle": "Проверки ещё не было",
        "check_running": "Идёт проверка: положите карты и уберите их. Осталось {s} с",
        "check_passed": "Проверка пройдена: калибровка записана",
        "check_failed": "Проверка не пройдена — калибровка не изменена",
        "check_error": "Проверка не удалась",
        "check_figures": "поле {area} см · карта {w}×{h} мм = {px} px · прочитано {read} из {laid}",
        "check_seat": "{seat}: ожидалась {exp}, прочитано {read}",
        "check_dropped": "пропущено кадров: {n}",
        # spoken (table_ui/speech.py and the display's ?speak=1)
        "speak": "озвучивать",
        "say_trump": "Козырь — {suit}.",
        "say_no_trump": "Без козыря.",
        "say_illegal": "Нарушение правил!",
        "say_illegal_by": "Нарушение правил: {name}!",
        "say_deal": "Раздача {n}: {points}.",
        "say_totals": "Итого: {points}.",
        "say_and": "и",
    },
    "en": {
        "lang": "en",
        "seat": "seat {n}",
        "seat_unset": {"joker:first_dealer": "drawing for aces", "bazar:first_dealer": "by lot"},
        "side": "side {n}",
        "rules_default": "default rules",
        "rules": "rules",
        "trump": "trump",
        "no_trump": "no trump",
        "all_trump": "every suit is trump",
        "trump_unknown": "trump not known yet",
        "contract": "contract",
        "deal": "deal {n}",
        "turn": "to play",
        "dealing": "dealing from the shoe",
        "deal_why": "deal {n}: {why}",
        "dealer_legend": "● {name} deals",
        "decl_bella": "bella",
        "decl_runs": {"3": "terz", "4": "fifty"},
        "decl_run_n": "{n} in sequence",
        "decl_points": "declared {n}",
        "decl_asking": "{name} ({n}) — from what?",
        "deal_fouls": "illegal plays in this deal",
        "deals": "{name} deals",
        "deal_to": "{cards} → {name}",
        "deal_self": "{cards} to the dealer",
        "card_forms": ["card", "cards", "cards"],
        "face_trump": "turn the trump card",
        "face_open": "turn the second open card",
        "ace_draw": "drawing for aces: a face-up card → {name}",
        "ace_draw_centre": "drawing for aces: the first card face up in the middle",
        "draws": "{name} draws: {cards}",
        "cards": "{n} cards",
        "trick": "trick",
        "outcomes": {"penalised": "penalised", "claimed": "claimed", "let go": "let go"},
        "declarations": "declarations",
        "score": "score",
        "deal_col": "#",
        "total": "total",
        "events": "events",
        "footage": "footage",
        "games": {"belot2": "Belot for two", "durak2": "Durak for two", "joker": "Joker",
                  "bazar": "Bazar-Belot", "terz": "Terz"},
        "chart": "the partie so far",
        "no_game": "No game yet",
        "no_game_hint": "The organiser starts a game at /admin",
        "over": "Game over",
        "winner": "Winner: {name}",
        "final_score": "score {score}",
        "confirm_card": "Confirm the card — waiting for the organiser",
        "log_error": "The log is not writable: {msg}",
        "illegal": "Illegal play",
        "offline": "no connection to the server — reconnecting…",
        "abandoned": "game ended by the organiser",
        "suits": {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"},
        "ranks": {"A": "A", "K": "K", "Q": "Q", "J": "J", "T": "10"},
        "joker": "Jkr",
        "values": {"true": "yes", "false": "no", "penalize": "penalty", "retract": "retract",
                   "on_claim": "on claim", "short": "short", "super_short": "super short"},
        "history": "Game history",
        "dealer_card": "Dealer's card (print)",
        "col_id": "#", "col_game": "game", "col_date": "date", "col_status": "status",
        "col_totals": "totals", "col_players": "players", "col_files": "files",
        "status_active": "in play", "status_finished": "finished", "status_abandoned": "abandoned",
        "sheet": "score sheet",
        "record": "record", "csv": "csv", "json": "json", "no_games": "No games yet",
        "back": "← display",
        "admin": "Organiser",
        "pin": "PIN",
        "login": "Log in",
        "logout": "Log out",
        "bad_pin": "Wrong PIN",
        "too_many": "Too many attempts — wait a minute",
        "new_game": "New game",
        "game": "Game",
        "players": "Players",
        "start": "Start the game",
        "pending": "A card waits for confirmation",
        "pending_none": "No card to confirm",
        "candidates": "Candidates",
        "card_code": "Card code (e.g. QS, TH)",
        "confirm": "Confirm",
        "skip": "Skip the card",
        "undo": "Undo the last",
        "raw_event": "Engine event",
        "raw_event_hint": "e.g. “2 bid hand:BK+8”",
        "send": "Send",
        "end_game": "End the game",
        "end_game_sure": "End the current game?",
        "status": "Table status",
        "devices_h": "Devices",
        "no_devices": "nothing reported",
        "log_seq": "entry {n}",
        "log": "Log",
        "log_ok": "writable",
        "clients": "displays connected",
        "done": "Done",
        "error": "Error",
        "current": "Now",
        "to_act": "to act",
        "default": "default",
        "demo_no_new_game": "The demo: the table replays recorded games, so no new game starts "
                            "here. New games are played on a real table.",
        "check_h": "Table check",
        "check_help": "Lay the cards named, one in each seat's zone (the first at seat 1), leave "
                      "them 2-3 seconds and take them away. Only before a game or after it ends.",
        "check_cards": "Cards by seat",
        "check_cards_hint": "AS,AH,AD,AC",
        "check_seconds": "seconds",
        "check_start": "Start the check",
        "check_idle": "No check yet",
        "check_running": "Checking: lay the cards and take them away. {s} s to go",
        "check_passed": "Check passed: the calibration is stored",
        "check_failed": "Check failed: the calibration is unchanged",
        "check_error": "The check could not run",
        "check_figures": "play area {area} cm · card {w}×{h} mm = {px} px · read {read} of {laid}",
        "check_seat": "{seat}: {exp} expected, read {read}",
        "check_dropped": "frames dropped: {n}",
        "speak": "speak",
        "say_trump": "Trump: {suit}.",
        "say_no_trump": "No trump.",
        "say_illegal": "Illegal play!",
        "say_illegal_by": "Illegal play by {name}!",
        "say_deal": "Deal {n}: {points}.",
        "say_totals": "Totals: {points}.",
        "say_and": "and",
    },
}

# -- the house-rule settings (engine/*: each game's ``settings_model``) -------------------------
# What the organiser's new-game form (admin.js) and the display's rule chips (display.js) call
# each setting, in Russian and English. The engine names a setting by its key and describes it in
# English for developers; the organiser reads these words instead. tests/test_setting_texts.py
# fails on a setting of any game without a label and a help here, and on a choice without words.

# setting key -> (Russian, English): the form's label and the chip's name
SETTING_LABELS: dict[str, tuple[str, str]] = {
    "policy": ("нарушение", "illegal play"),
    "game_type": ("партия", "partie"),
    "stake": ("ставка", "stake"),
    "proposer": ("в открытую играет", "plays open"),
    "first_dealer": ("первый сдающий", "first dealer"),
    "lot": ("жребий", "lot"),
    "first_speaker": ("первое слово", "first to speak"),
    "sequence_order": ("порядок карт в комбинациях", "sequence order"),
    "second_open_card": ("вторая открытая карта", "second open card"),
    "claims": ("«Партия!»", "claims"),
    "rozaliev": ("по Розалиеву", "Rozaliev"),
    "transfer": ("переводной", "transfer"),
    "deck": ("колода", "deck"),
    "minus_joker": ("минусовой джокер", "minus joker"),
    "joker_lead_modes": ("«хочу» и «забирай» с хода", "«want» and «take» on lead"),
    "joker_nominal": ("джокер по номиналу", "joker as its six"),
    "ace_draw_first_seat": ("тузование начинается с", "ace draw starts at"),
    "ace_draw_center_card": ("тузование: первая карта в центр", "ace draw: first card to the centre"),
    "foul_penalty": ("штраф за нарушение", "penalty for an illegal play"),
    "deal_pattern": ("сдача", "deal"),
    "target": ("партия до", "target"),
    "four_passes": ("четыре паса", "four passes"),
    "max_bid": ("наибольшая заявка", "highest bid"),
    "max_kapo_plus": ("наибольшее «Капо + К»", "highest «Капо + K»"),
    "kapo_n": ("Капо как заявка на", "Капо counts as"),
    "kapo_n_vk": ("Капо в ВК как заявка на", "Капо in ВК counts as"),
    "failed_bonus": ("премия защите", "defenders' bonus"),
    "failed_bonus_vk": ("премия защите в ВК", "defenders' bonus in ВК"),
    "failed_capot_bonus": ("премия защите за все взятки", "defenders' bonus for every trick"),
    "failed_capot_bonus_vk": ("премия защите за все взятки в ВК",
                              "defenders' bonus for every trick in ВК"),
    "capot_points": ("очки за все взятки", "points for every trick"),
    "capot_points_vk": ("очки за все взятки в ВК", "points for every trick in ВК"),
    "hand_size": ("карт на руке", "hand size"),
    "deal_packet": ("сдавать по", "dealt at a time"),
    "dealer_last": ("сдающий получает последним", "dealer served last"),
    "leader": ("первый ход", "first lead"),
    "winner_draws_first": ("взявший добирает первым", "winner draws first"),
    "next_dealer": ("следующий сдающий", "next dealer"),
    "terz_value": ("терц", "terz"),
    "four_value": ("четверик", "four in a row"),
    "five_value": ("пятерик и длиннее", "five or more in a row"),
    "marriage_value": ("козырные король и дама", "trump marriage"),
    "declare_after_last_draw": ("объявление после последнего добора", "declare after the last draw"),
    "trump_group_wins_tie": ("козырная группа старше при равенстве", "trump group wins a tie"),
}

# "game:key" or "key" -> (Russian, English): one sentence under the form's field, in the
# organiser's words (docs/rules.md), with the default; "game:key" first, where games differ.
# Seats are numbered from 0 in the engine; the form's players are «место 1», «место 2» …
SETTING_HELP: dict[str, tuple[str, str]] = {
    "policy": (
        "Что бывает после нарушения за столом: «вернуть карту» — карту сразу берут обратно, "
        "«штраф» — штраф по правилам игры при подсчёте сдачи, «по заявке» — штраф, только если "
        "пострадавший заявит о нарушении до подсчёта; по умолчанию — штраф.",
        "What follows an illegal play at the table: take back — the card goes back into the "
        "hand at once; penalty — the game's penalty applies when the deal is scored; on claim — "
        "the penalty applies only if the wronged player claims it before the score is accepted; "
        "the default is penalty."),
    "durak2:policy": (
        "Что бывает, если карта не бьёт: «вернуть карту» (по умолчанию) — её берут обратно, "
        "«штраф» — после хода отбивающийся забирает со стола все карты, «по заявке» — то же, "
        "только если атакующий заявит до «бито»; неправильно подкинутую карту берут обратно всегда.",
        "What follows a cover that does not beat: take back (the default) — it is taken back; "
        "penalty — the defender takes the whole table when the bout ends; on claim — the same, "
        "only if the attacker claims before «бито»; a wrong attack or throw-in is always taken back."),
    "terz:policy": (
        "Что бывает после нарушения или ложного объявления: «вернуть карту» — карту сразу берут "
        "обратно, «штраф» — штраф при подсчёте сдачи, «по заявке» — штраф, только если соперник "
        "заявит до подсчёта; по умолчанию — штраф.",
        "What follows an illegal play or a false declaration: take back — the card goes back at "
        "once; penalty — the penalty applies when the deal is scored; on claim — only if the "
        "opponent claims it before the score is accepted; the default is penalty."),
    "belot2:game_type": (
        "Какую партию играют: «короткая» — одна сдача, расчёт ставками; «до 301» или «до 501» "
        "(по умолчанию) — сдачи, пока кто-то не наберёт счёт; «в открытую» — до 501, предложивший "
        "играет с открытыми картами и начинает со 150, 155 или 160 очков.",
        "The kind of partie: short — one deal, settled in stakes; to 301 or to 501 (the "
        "default) — deals until a player reaches the target; open — to 501, the proposer plays "
        "with open cards and starts with 150, 155 or 160 points."),
    "durak2:game_type": (
        "Какую партию играют: «короткая» (по умолчанию) — одна игра до конца колоды; "
        "«сверхкороткая» — одна сдача по 6 карт без добора, выигрывает первый, кто избавится от "
        "карт; «до 3», «до 5», «до 7 очков» — игры, пока кто-то не наберёт столько очков "
        "(очко за выигранную игру).",
        "The kind of partie: short (the default) — one game to the end of the talon; super "
        "short — one deal of 6 each, nobody draws, the first to play out their hand wins; to 3, "
        "5 or 7 points — games until a player has that many points (one per game won)."),
    "stake": (
        "Ставка в короткой партии, а по Розалиеву — цена одного очка; по умолчанию 1.",
        "The stake of a short partie, and the value of a point under Rozaliev; the default is 1."),
    "proposer": (
        "Для партии в открытую: кто играет с открытыми картами и получает фору; по умолчанию "
        "место 1.",
        "Open-cards partie: the player who plays open and gets the head start; the default is "
        "seat 1."),
    "first_dealer": (
        "Кто сдаёт первую сдачу; по умолчанию место 1.",
        "Who deals the first deal; the default is seat 1."),
    "joker:first_dealer": (
        "Кто сдаёт первым; если не выбран (по умолчанию), первого сдающего определяет тузование "
        "из шуза.",
        "Who deals first; unset (the default): drawing for aces from the shoe decides."),
    "bazar:first_dealer": (
        "Кто сдаёт первым; если не выбран (по умолчанию), его определяют жребием за столом и "
        "отмечают до первой карты.",
        "Who deals first; unset (the default): drawn by lot at the table and recorded before the "
        "first card."),
    "lot": (
        "Кто выиграл жребий (угадал цвет): он говорит первым в первой сдаче, если первое слово у "
        "проигравшего; по умолчанию место 2.",
        "Who won the lot (guessing a colour): that player speaks first in the first deal when "
        "the loser speaks first; the default is seat 2."),
    "first_speaker": (
        "Кто говорит первым и первым ходит: «проигравший сдачу» (по умолчанию) — набравший меньше "
        "в прошлой сдаче, а в первой — выигравший жребий; «не сдающий» — всегда он, как у "
        "Розалиева.",
        "Who speaks and leads first: the loser of the deal (the default) — who scored less in "
        "the previous deal, in the first one the winner of the lot; the non-dealer — always, as "
        "in Rozaliev."),
    "sequence_order": (
        "Порядок карт в терцах и «пятьдесят»: «Т К Д В 10 9 8 7» (по умолчанию) или "
        "«Т 10 К Д В 9 8 7», как по Розалиеву играют в некоторых компаниях.",
        "The card order in terzes and fifties: A K Q J 10 9 8 7 (the default) or "
        "A 10 K Q J 9 8 7, which Rozaliev reports from some companies."),
    "second_open_card": (
        "После торговли из шуза открывают ещё одну карту, вторую открытую, ею никто не играет; "
        "по умолчанию да.",
        "After the bidding one more shoe card is turned face up as a second open card that no "
        "one plays; on by default."),
    "claims": (
        "В длинной партии можно объявить «Партия!»: игру останавливают, и объявивший выигрывает, "
        "если уже набрал нужный счёт, а иначе проигрывает; по умолчанию да.",
        "In a long partie a player may call «Партия!»: play stops, and the caller wins if they "
        "have reached the target, and loses otherwise; on by default."),
    "rozaliev": (
        "Вариант Розалиева: до 501, первое слово всегда у не сдающего, без второй открытой карты, "
        "проигравший платит (501 − его очки) × ставку; по умолчанию нет, а противоречащие ему "
        "настройки не принимаются.",
        "Rozaliev's variant: to 501, the non-dealer always speaks first, no second open card, "
        "the loser pays (501 − the loser's points) × the stake; off by default, and settings "
        "that contradict it are refused."),
    "transfer": (
        "Переводной дурак: пока ничего не побито, отбивающийся может подложить карту того же "
        "достоинства, и тогда роли меняются; по умолчанию нет.",
        "Transfer durak: before anything is beaten, the defender may add a card of the attacking "
        "rank, and the roles swap; off by default."),
    "deck": (
        "Колода: «36 карт» (по умолчанию) — 6♠ и 6♣ заменены двумя джокерами; «38 карт» — все "
        "четыре шестёрки и два джокера.",
        "The deck: 36 cards (the default) — 6♠ and 6♣ replaced by the two jokers; 38 cards — "
        "all four sixes and two jokers."),
    "minus_joker": (
        "Минусовой счёт: сыгранная заявка даёт по 100 за каждую заказанную взятку, а каждая "
        "недобранная взятка — минус 100 (вместо хишта); по умолчанию нет.",
        "Minus scoring: a bid made scores 100 per trick bid, and each trick short costs 100 "
        "(instead of the хишт); off by default."),
    "joker_lead_modes": (
        "Джокер с хода объявляют «хочу» с мастью (все дают старшую карту масти) или «забирай» с "
        "мастью (джокер — младшая карта масти), как в грузинских правилах; если выключено, "
        "джокер с хода — «старшая» или «скидываю»; по умолчанию да.",
        "A joker on lead is played «хочу» with a suit (everyone gives their best card of it) or "
        "«забирай» with a suit (the joker is its lowest card), the Georgian rules; off: on lead "
        "too it is high or low; on by default."),
    "joker_nominal": (
        "Джокером можно сыграть как шестёркой, которую он заменил, 6♠ или 6♣ (только в колоде "
        "из 36 карт); по умолчанию да.",
        "A joker may be played as the six it replaced, 6♠ or 6♣ (36-card deck only); on by "
        "default."),
    "ace_draw_first_seat": (
        "Тузование: кому идёт первая открытая карта; по умолчанию место 1.",
        "Drawing for aces: the player who gets the first face-up card; the default is seat 1."),
    "ace_draw_center_card": (
        "Тузование: первую открытую карту кладут в центр стола, как в исходных правилах; по "
        "умолчанию нет.",
        "Drawing for aces: the first face-up card goes to the centre of the table, as in the "
        "source text; off by default."),
    "joker:foul_penalty": (
        "Сколько теряет нарушитель: его сдача записывается как минус это число, и премию за "
        "пульку он не получает; по умолчанию 200.",
        "What an illegal play costs: the offender's deal scores minus this number, and the "
        "offender gets no pulka premium; the default is 200."),
    "terz:foul_penalty": (
        "Чем платит нарушитель: «все очки сдачи» (по умолчанию, как «байд с картами») — "
        "сопернику все очки сдачи, нарушителю ноль; «только очки карт» — сопернику только очки "
        "карт нарушителя и последняя взятка.",
        "What an illegal play costs: every point (the default, as «байд с картами») — the "
        "opponent scores every point of the deal, the offender nothing; card points only — only "
        "the offender's card points and last trick go to the opponent."),
    "deal_pattern": (
        "Как сдают, по часовой стрелке начиная слева от сдающего: «4 + 4 карты» (по умолчанию) "
        "или «3 + 2 + 3 карты».",
        "How the cards are dealt, clockwise from the dealer's left: 4 + 4 cards (the default) "
        "or 3 + 2 + 3 cards."),
    "bazar:target": (
        "Сколько очков нужно паре, чтобы выиграть партию; по умолчанию 301.",
        "The points a pair needs to win the partie; the default is 301."),
    "terz:target": (
        "Партия кончается, когда у игрока после сдачи столько очков; по умолчанию 501.",
        "The partie ends when a player has this many points after a deal; the default is 501."),
    "four_passes": (
        "Кто пересдаёт, если все четверо спасовали: «сдаёт следующий» (по умолчанию) — сдача не в "
        "счёт, как при Рамках 7, и сдаёт следующий по часовой стрелке; «сдаёт тот же» — тот же "
        "сдающий.",
        "Who redeals when all four pass: the next dealer (the default) — the deal is void, as "
        "with Рамки 7, and the next seat clockwise deals; the same dealer — the same seat."),
    "max_bid": (
        "Наибольшая заявка, которую предлагают панели мест (заявка 9 — не меньше 90 вистов); по "
        "умолчанию 40.",
        "The highest bid the seat panels offer (a bid of 9 is at least 90 висты); the default "
        "is 40."),
    "max_kapo_plus": (
        "Наибольшая надбавка в заявке «Капо + К», которую предлагают панели мест; по умолчанию 20.",
        "The highest K the seat panels offer in «Капо + K»; the default is 20."),
    "kapo_n": (
        "Капо в масти или БК считается заявкой на столько (а «Капо + К» — на столько плюс К); по "
        "умолчанию 25.",
        "A Капо in a suit or БК game counts as a bid of this much («Капо + K»: this plus K); the "
        "default is 25."),
    "kapo_n_vk": (
        "Капо в ВК считается заявкой на столько; по умолчанию 35.",
        "A Капо in ВК counts as a bid of this much; the default is 35."),
    "failed_bonus": (
        "Сколько очков сверх заявки получает защита, когда не сыгран контракт в масти или БК; по "
        "умолчанию 16.",
        "The defenders' extra points when a suit or БК contract fails; the default is 16."),
    "failed_bonus_vk": (
        "Сколько очков сверх заявки получает защита, когда не сыгран контракт в ВК; по умолчанию 26.",
        "The defenders' extra points when a ВК contract fails; the default is 26."),
    "failed_capot_bonus": (
        "Премия защите вместо обычной, когда она взяла все взятки против контракта в масти или "
        "БК; по умолчанию 25.",
        "The defenders' bonus instead of the usual one when they took every trick against a suit "
        "or БК contract; the default is 25."),
    "failed_capot_bonus_vk": (
        "Премия защите вместо обычной, когда она взяла все взятки против контракта в ВК; по "
        "умолчанию 35.",
        "The defenders' bonus instead of the usual one when they took every trick against a ВК "
        "contract; the default is 35."),
    "capot_points": (
        "Сколько очков за карты (с последней взяткой) записывают паре, взявшей все взятки в масти "
        "или БК, вместо их суммы; по умолчанию 252.",
        "The card points (last trick included) a pair that took every trick in a suit or БК game "
        "counts instead of its cards' sum; the default is 252."),
    "capot_points_vk": (
        "Сколько очков за карты (с последней взяткой) записывают паре, взявшей все взятки в ВК, "
        "вместо их суммы; по умолчанию 348.",
        "The card points (last trick included) a pair that took every trick in ВК counts instead "
        "of its cards' sum; the default is 348."),
    "hand_size": (
        "Сколько карт у каждого после сдачи и после каждого добора; по умолчанию 9.",
        "The cards each player holds after the deal and after every draw; the default is 9."),
    "deal_packet": (
        "По сколько карт сдают за раз (число карт на руке должно на него делиться); по умолчанию 3.",
        "How many cards are dealt at a time (it must divide the hand size); the default is 3."),
    "dealer_last": (
        "Первую пачку карт получает соперник сдающего, последнюю — сдающий; по умолчанию да.",
        "The dealer's opponent gets the first packet, the dealer the last; on by default."),
    "leader": (
        "Кто ходит первым в сдаче: «соперник сдающего» (по умолчанию) или «сдающий».",
        "Who leads the first trick: the dealer's opponent (the default) or the dealer."),
    "winner_draws_first": (
        "После взятки первым из колоды добирает тот, кто её взял; по умолчанию да.",
        "After a trick its winner draws from the talon first; on by default."),
    "next_dealer": (
        "Кто сдаёт следующую сдачу: «взявший последнюю взятку» (по умолчанию) или «по очереди».",
        "Who deals next: the last trick's taker (the default) or in turn."),
    "terz_value": (
        "Сколько стоит терц, три карты масти подряд; по умолчанию 20.",
        "What a terz, three cards of a suit in a row, is worth; the default is 20."),
    "four_value": (
        "Сколько стоит четверик, четыре карты масти подряд; по умолчанию 50.",
        "What a четверик, four in a row, is worth; the default is 50."),
    "five_value": (
        "Сколько стоит пятерик и любая более длинная группа; по умолчанию 100.",
        "What a пятерик or any longer group is worth; the default is 100."),
    "marriage_value": (
        "Сколько стоят козырные король и дама у одного игрока; по умолчанию 20.",
        "What the trump king and queen in one hand are worth; the default is 20."),
    "declare_after_last_draw": (
        "Ходящий сразу после того, как взята последняя карта из колоды, ещё может объявить группу; "
        "по умолчанию да.",
        "The lead right after the last card is drawn from the talon may still declare a group; "
        "on by default."),
    "trump_group_wins_tie": (
        "Из двух групп одной длины с одинаковой старшей картой старше козырная, а если выключено — "
        "объявленная первой; по умолчанию да.",
        "Of two groups of equal length and top card the trump one is higher, and when off the "
        "one declared first; on by default."),
}

# setting key -> {the engine's value: (Russian, English)}: the words of a choice (the form's
# <option> text and the chip's value); the form still sends the engine's value
SETTING_VALUES: dict[str, dict[str, tuple[str, str]]] = {
    "policy": {"retract": ("вернуть карту", "take back"), "penalize": ("штраф", "penalty"),
               "on_claim": ("по заявке", "on claim")},
    "game_type": {
        "short": ("короткая", "short"), "301": ("до 301", "to 301"), "501": ("до 501", "to 501"),
        "open150": ("в открытую, 150", "open, 150"), "open155": ("в открытую, 155", "open, 155"),
        "open160": ("в открытую, 160", "open, 160"), "super_short": ("сверхкороткая", "super short"),
        "long3": ("до 3 очков", "to 3 points"), "long5": ("до 5 очков", "to 5 points"),
        "long7": ("до 7 очков", "to 7 points")},
    "first_speaker": {"loser": ("проигравший сдачу", "loser of the deal"),
                      "non_dealer": ("не сдающий", "non-dealer")},
    "sequence_order": {"AKQJT987": ("Т К Д В 10 9 8 7", "A K Q J 10 9 8 7"),
                       "ATKQJ987": ("Т 10 К Д В 9 8 7", "A 10 K Q J 9 8 7")},
    "deck": {"36j": ("36 карт", "36 cards"), "38": ("38 карт", "38 cards")},
    "deal_pattern": {"4+4": ("4 + 4 карты", "4 + 4 cards"), "3+2+3": ("3 + 2 + 3 карты", "3 + 2 + 3 cards")},
    "four_passes": {"next_dealer": ("сдаёт следующий", "next dealer"),
                    "same_dealer": ("сдаёт тот же", "same dealer")},
    "leader": {"opponent": ("соперник сдающего", "dealer's opponent"), "dealer": ("сдающий", "dealer")},
    "next_dealer": {"last_trick": ("взявший последнюю взятку", "last trick's taker"),
                    "alternate": ("по очереди", "in turn")},
    "foul_penalty": {"all": ("все очки сдачи", "every point"), "cards": ("только очки карт", "card points only")},
}


# why a deal scored as it did, by the score items' rule id ("game:rule" before "rule", for
# the rules whose words differ between games): the TV's line under the score
SCORE_REASONS: dict[str, tuple[str, str]] = {
    "bayd": ("байд — у разыгрывающего меньше, все его очки у защиты",
             "байд — the declarer scored less: all its points go to the defender"),
    "hanging-bayd": ("висячий байд — поровну, очки разыгрывающего висят",
                     "висячий байд — a tie: the declarer's points hang"),
    "hanging-bayd-won": ("висячие очки забрал набравший больше",
                         "the hanging points went to the higher scorer"),
    "wrong-play": ("неправильный бой — все очки сдачи сопернику",
                   "неправильный бой — every point of the deal to the opponent"),
    "contract-made": ("контракт сыгран", "contract made"),
    "contract-failed": ("контракт не сыгран — очки у защиты",
                        "contract failed — the points go to the defenders"),
    "failed-capot-bonus": ("защита взяла все взятки", "the defenders took every trick"),
    "bazar:foul": ("нарушение — пара нарушителя проиграла сдачу",
                   "illegal play — the offenders' pair loses the deal"),
    "terz:foul": ("нарушение — все очки сдачи сопернику",
                  "illegal play — every point of the deal to the opponent"),
    "joker:foul": ("нарушение — −200 нарушителю", "illegal play — −200 to the offender"),
    "hisht": ("хишт — заказал и не взял ни одной: −200", "хишт — bid and took none: −200"),
    "all-tricks": ("взяты все взятки", "took every trick"),
    "premium": ("премия за пульку", "pulka premium"),
    "premium-loss": ("списано за чужую премию", "lost to another player's premium"),
}

# a device's state on the admin page
DEVICE_STATES: dict[str, tuple[str, str]] = {
    "connected": ("работает", "working"),
    "back": ("снова работает", "working again"),
    "idle": ("ждёт", "waiting"),
    "stalled": ("нет кадров", "no frames"),
    "lost": ("потеряна связь", "lost"),
    "disconnected": ("отключён", "disconnected"),
    "error": ("ошибка", "error"),
    "warning": ("внимание", "warning"),
    "verified": ("проверена", "verified"),
    "unverified": ("не проверена", "not verified"),
    "running": ("работает", "working"),
    "passed": ("проверено", "passed"),
    "ended": ("закончил", "ended"),
}

# a game's phase (the view's ``phase``) on the admin page
PHASES: dict[str, tuple[str, str]] = {
    "lot": ("жребий", "lot"),
    "deal": ("сдача", "deal"),
    "dealing": ("сдача", "dealing"),
    "dealing the second batch": ("сдача, вторая часть", "dealing the second batch"),
    "bidding": ("торговля", "bidding"),
    "bid": ("заказы", "bids"),
    "auction": ("торговля", "auction"),
    "contra": ("контра", "contra"),
    "play": ("розыгрыш", "play"),
    "draw": ("добор", "drawing"),
    "scoring": ("подсчёт", "scoring"),
    "score": ("подсчёт", "scoring"),
    "over": ("конец", "over"),
    "ace_draw": ("тузование", "ace draw"),
    "confirm": ("подтверждение счёта", "confirming the score"),
}


def _words(table: dict[str, tuple[str, str]], lang: str) -> dict[str, str]:
    """One language's side of a (Russian, English) table."""
    k = 1 if lang == "en" else 0
    return {key: t[k] for key, t in table.items()}


def setting_texts(lang: str) -> dict[str, dict[str, Any]]:
    """The catalogue's sections kept as (Russian, English) tables: the settings' labels, help and
    choice words, the deals' reasons, the devices' states and the games' phases."""
    return {"settings": _words(SETTING_LABELS, lang),
            "setting_help": _words(SETTING_HELP, lang),
            "setting_values": {key: _words(words, lang) for key, words in SETTING_VALUES.items()},
            "score_reasons": _words(SCORE_REASONS, lang),
            "device_states": _words(DEVICE_STATES, lang),
            "phases": _words(PHASES, lang)}


# what alerts say, by rule id and camera note (table_ui/rule_texts.py)
# and the score sheet's lines (table_ui/sheet_texts.py); the settings whose value is a seat (the
# display's chips name the player), the same in every language
_SEAT_SETTINGS = sorted({k for g in available_games()
                         for k, f in game_class(g).settings_model.model_fields.items()
                         if is_seat(f)})
for _lang, _texts in CATALOGUE.items():
    _texts.update(rule_texts.catalogue(_lang))
    _texts.update(setting_texts(_lang))
    _texts["sheet_lines"] = _words(SHEET_LINES, _lang)
    _texts["seat_settings"] = _SEAT_SETTINGS


def lang_of(value: str | None, default: str = DEFAULT_LANG) -> str:
    return value if value in CATALOGUE else default


def catalogue(lang: str) -> dict[str, Any]:
    return CATALOGUE[lang_of(lang)]

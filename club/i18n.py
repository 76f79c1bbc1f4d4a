"""The club pages' words: Russian by default, English with ``?lang=en`` (same keys in both,
checked by a test)."""

from __future__ import annotations

DEFAULT_LANG = "ru"

TEXTS: dict[str, dict[str, str]] = {
    "ru": {
        "club": "Клуб", "room": "Зал", "results": "Результаты вечера", "all_results": "все партии",
        "table": "Стол", "link": "Связь", "online": "в сети", "offline": "нет связи",
        "game": "Игра", "players": "Игроки", "score": "Счёт", "turn": "Ходит", "check": "Проверка",
        "no_game": "партии ещё не было", "no_tables": "Ни один стол ещё не подключался",
        "dealing": "раздача из шуза", "over": "окончена", "abandoned": "прервана",
        "winner": "Победитель", "draw": "ничья", "started": "Начало", "status": "Состояние",
        "active": "идёт", "finished": "окончена",
        "check_ok": "по правилам", "check_refused": "отклонена правилами",
        "check_differs": "счёт стола не сходится с правилами",
        "not_counted": "не идёт в зачёт", "problem": "Причина",
        "seat": "место {n}", "side": "сторона {n}", "deal": "Раздача", "total": "Итого",
        "record": "Запись партии (нотация)", "sheet": "Протокол", "back": "← зал",
        "player": "Игрок", "games_of": "Партии игрока", "export": "Выгрузка",
        "last_seen": "последний раз {ago}", "seconds_ago": "{n} с назад",
        "minutes_ago": "{n} мин назад", "never": "—", "not_found": "Нет такой партии",
        "live": "обновляется само", "lost_live": "нет связи с сервером клуба — переподключение…",
        "belot2": "Белот вдвоём", "durak2": "Дурак вдвоём", "joker": "Джокер",
        "bazar": "Базар-Белот", "terz": "Терц", "no_results": "Сегодня партий ещё не было",
    },
    "en": {
        "club": "Club", "room": "Room", "results": "Tonight's results", "all_results": "all games",
        "table": "Table", "link": "Link", "online": "online", "offline": "offline",
        "game": "Game", "players": "Players", "score": "Score", "turn": "To play", "check": "Check",
        "no_game": "no game yet", "no_tables": "No table has connected yet",
        "dealing": "dealing from the shoe", "over": "over", "abandoned": "abandoned",
        "winner": "Winner", "draw": "draw", "started": "Started", "status": "Status",
        "active": "playing", "finished": "finished",
        "check_ok": "by the rules", "check_refused": "refused by the rules",
        "check_differs": "the table's score differs from the rules",
        "not_counted": "not counted", "problem": "Why",
        "seat": "seat {n}", "side": "side {n}", "deal": "Deal", "total": "Total",
        "record": "Game record (notation)", "sheet": "Score sheet", "back": "← room",
        "player": "Player", "games_of": "Games of", "export": "Export",
        "last_seen": "last seen {ago}", "seconds_ago": "{n} s ago",
        "minutes_ago": "{n} min ago", "never": "—", "not_found": "No such game",
        "live": "updates by itself", "lost_live": "lost the club server — reconnecting…",
        "belot2": "Two-player Belot", "durak2": "Two-player Durak", "joker": "Joker",
        "bazar": "Bazar-Belot", "terz": "Terz", "no_results": "No games tonight yet",
    },
}


# The organiser's refusals (club.organiser.ClubError codes): Russian and English.
ERRORS: dict[str, tuple[str, str]] = {
    "name-empty": ("Не указано: {what}", "the {what} is empty"),
    "name-long": ("Слишком длинно ({what}): не больше {max} знаков",
                  "the {what} is longer than {max} characters"),
    "name-control": ("Недопустимые знаки ({what})", "the {what} has control characters"),
    "name-taken": ("«{name}» уже есть в списке игроков: {other}",
                   "{name!r} already names {other!r} in the register"),
    "no-player": ("Игрока №{id} нет в списке", "there is no player {id} in the register"),
    "seat-who": ("Укажите либо игрока из списка, либо гостя",
                 "name either a registered player or a guest for the seat"),
    "seat-range": ("В партии {game} места с 1 по {seats}, места {seat} нет",
                   "game {game} has seats 1 to {seats}, not {seat}"),
    "seat-twice": ("{player} уже сидит на месте {seat} в партии {game}: один игрок — одно "
                   "место", "{player} already sits at seat {seat} of game {game}: a player "
                   "plays one seat"),
    "no-kind": ("Нет такой записи результата: {kind} (есть: {kinds})",
                "no such result entry {kind!r} (there are: {kinds})"),
    "side-range": ("Укажите сторону: от 1 до {n}", "name the side: 1 to {n}"),
    "no-result": ("У партии {game} нет результата, который можно подтвердить ({state})",
                  "game {game} has no result to confirm or dispute ({state})"),
    "totals-count": ("Нужно {n} числа — по одному на сторону", "give {n} totals, one per side"),
    "winner-range": ("Победитель — сторона от 1 до {n}", "the winner is a side, 1 to {n}"),
    "void-already": ("Партия {game} уже аннулирована", "game {game} is void already"),
    "not-void": ("Партия {game} не аннулирована", "game {game} is not void"),
    "evening-closed": ("Вечер закрыт: менять его результаты может только организатор",
                       "the evening is closed: only the organiser changes its results"),
    "no-game": ("Партии {game} нет", "there is no game {game}"),
    "evening-open": ("Вечер «{title}» ещё открыт: сначала закройте его",
                     "the evening {title!r} is still open: close it first"),
    "no-evening": ("Открытого вечера нет", "no evening is open"),
    "settle-first": ("Сначала решите: партии {games} ещё идут или оспорены",
                     "settle these first: games {games} are still played or disputed"),
    "pin-store": ("PIN-код не сохранён: {reason}", "cannot store the PIN: {reason}"),
    "why-missing": ("Укажите причину: она хранится вместе с изменением",
                    "say why: the reason is kept with the change"),
    "why-long": ("Причина длиннее {max} знаков", "the reason is longer than {max} characters"),
}
# What a name is of (the {what} above).
WHAT: dict[str, tuple[str, str]] = {
    "name": ("имя", "name"), "nickname": ("прозвище", "nickname"),
    "guest": ("имя гостя", "guest's name"), "by": ("кто вносит", "name of who records it"),
    "title": ("название вечера", "evening's title"),
}


def error_text(code: str, params: dict[str, object], lang: str | None) -> str:
    """A ClubError said in ``lang``."""
    ru, en = ERRORS.get(code, (code, code))
    en_lang = lang == "en"
    values = dict(params)
    if "what" in values:
        values["what"] = WHAT.get(str(values["what"]), (values["what"],) * 2)[1 if en_lang else 0]
    try:
        return (en if en_lang else ru).format(**values)
    except (KeyError, IndexError, ValueError):
        return code


def texts(lang: str | None) -> dict[str, str]:
    return TEXTS.get(lang or DEFAULT_LANG, TEXTS[DEFAULT_LANG])

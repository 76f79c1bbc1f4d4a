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


def texts(lang: str | None) -> dict[str, str]:
    return TEXTS.get(lang or DEFAULT_LANG, TEXTS[DEFAULT_LANG])

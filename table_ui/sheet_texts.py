"""The score sheet's sentences in Russian and English, by the key each sheet line carries
(``engine.scoresheet.Line``).

A line reaches the pages as its key and parameters (``note_lines``, an item's ``line``,
``result_line``); ``Cards.sheetLine`` fills these templates: ``{seat}`` (or ``{…_seat}``) is a
player's name, ``{side}`` (``{…_side}``) a side's, ``{card}``/``{cards}`` cards in the page's card
style, ``{trump}`` a suit, ``{run}`` a Belot run's name, ``{rule}`` the rule's words
(``table_ui/rule_texts.py``), ``{outcome}`` what became of an illegal play, a nested line (``{need}``,
``{declared}``, ``{parts}``) its own words. ``SHEET_LINES`` pairs each key's Russian and English
(``_RU``, ``_EN``, one entry each); the engine's own sentence is shown only for a key without
words.
``tests/test_sheet_texts.py`` plays random games of the five games and fails on a line without
words here, on a template naming a parameter its line does not carry, or on the two languages
differing in keys or placeholders.
"""

from __future__ import annotations

_PARTIE = "{seat} выигрывает партию {won} : {lost}"
_SETTLED = "; расчёт (501 − {lost}) × {stake} = {owed}"

_RU: dict[str, str] = {
    # shared by the games that count card points
    "card-points": "очки за карты (взяток: {tricks})",
    "last-trick": "последняя взятка",
    "before-first-deal": "до первой сдачи",
    # two-player Belot (docs/rules.md §1)
    "combination": "{run} {cards}",
    "combination-beaten": "{seat}: {run} {cards} бита лучшей комбинацией соперника ({winner_seat}) "
                          "и не считается",
    "bella": "бэла (козырные К + Д)",
    "wrong-play-offender": "неправильный бой: все очки ({points}: карты {card_points}, комбинации "
                           "{combinations}, бэла {bella}, последняя взятка {last_trick}) переходят "
                           "сопернику — {other_seat}",
    "wrong-play-opponent": "неправильный бой соперника ({offender_seat}): все очки сдачи, "
                           "{own} + {moved} = {total}",
    "wrong-play-both": "неправильный бой у обоих: 0 вместо {points}",
    "claim-won": "«Партия!» ({seat}): очки до сдачи и за сдачу без последней взятки и без проверки "
                 "на байд, {before} + {deal} = {total} ≥ {target} — партия выиграна",
    "claim-lost": "«Партия!» ({seat}): очки до сдачи и за сдачу без последней взятки и без проверки "
                  "на байд, {before} + {deal} = {total} < {target} — партия проиграна",
    "claim-failed-foul": "«Партия!» ({seat}) не засчитана: у заявившего поймано нарушение — "
                         "партия проиграна",
    "pot-dropped": "висячие очки ({pot}) сгорают: партия окончена",
    "short-less": "разыгрывающий {declarer} < защита {defender}: разыгрывающий платит 2 ставки",
    "short-equal": "разыгрывающий {declarer} = защита {defender}: разыгрывающий платит 1 ставку",
    "short-more": "разыгрывающий {declarer} > защита {defender}: разыгрывающий выигрывает",
    "bayd-after-wrong-play": "байд: после неправильного боя у разыгрывающего 0 < {defender}",
    "bayd-declarer": "байд: у разыгрывающего {declarer} < {defender} у защиты, его очки уходят "
                     "защите",
    "bayd-defender": "байд: очки разыгрывающего ({declarer})",
    "hanging-bayd": "висячий байд: у разыгрывающего и защиты поровну ({points}), очки "
                    "разыгрывающего висят",
    "pot-grows": "висячие очки растут: {pot} + {added} = {total}",
    "pot-hangs": "висячие очки ({pot}) ждут сдачи, в которой кто-то наберёт больше",
    "hanging-bayd-won": "висячий байд прошлых сдач ({pot}): в этой сдаче набрано больше",
    "redeal-passed": "пересдача: оба дважды сказали «пас» (открыта {card}); первым говорит {seat}",
    "both-passed-target": "оба перешли {target}: сначала считаются очки защиты",
    "open-cards-bonus": "премия за открытые карты (все сдачи играются в открытую)",
    "short-partie-won": "{seat} (разыгрывающий) выигрывает короткую партию: {loser_seat} платит "
                        "{stake}",
    "short-partie-lost": "{seat} (разыгрывающий) проигрывает короткую партию и платит "
                         "{winner_seat}: {stakes} × ставка = {paid}",
    "partie-won": _PARTIE + " (набрано {target})",
    "partie-won-claim": _PARTIE + " («Партия!» {claim_seat} подтвердилась)",
    "partie-won-failed-claim": _PARTIE + " («Партия!» {claim_seat} не подтвердилась)",
    "partie-won-settled": _PARTIE + " (набрано {target})" + _SETTLED,
    "partie-won-claim-settled": _PARTIE + " («Партия!» {claim_seat} подтвердилась)" + _SETTLED,
    "partie-won-failed-claim-settled": _PARTIE + " («Партия!» {claim_seat} не подтвердилась)"
                                       + _SETTLED,
    "in-progress": "идёт сдача {deal}",
    "in-progress-pot": "идёт сдача {deal}, висячие очки: {pot}",
    # two-player Durak (§2)
    "durak-dealer": "сдаёт {seat}; козырь {card}",
    "durak-redealt": "пересдача ×{times}: ни у кого не было козыря",
    "durak-first-lowest-trump": "первым ходит {seat}: младший козырь {card}",
    "durak-first-winner": "первым ходит {seat}: победитель прошлой партии",
    "durak-win": "первым избавился от карт: выигрывает партию",
    "durak-loser": "{seat} — дурак",
    "durak-draw": "карты кончились у обоих: ничья, очко никому",
    "durak-illegal-defence": "бой {bout}: неправильная защита ({seat}, {outcome}) — карты "
                             "забирает защищавшийся, а не «бито»",
    "match-draw": "ничья {points} : {points}",
    "durak-match-won": "{seat} выигрывает {won} : {lost}; {loser_seat} — дурак",
    "durak-in-progress": "идёт партия {game}, счёт {score}",
    # Joker (§3)
    "joker-pass-made": "заказ 0 («пас»), взято 0: 50",
    "joker-tricks": "заказ {bid}, взято {took}: 10 × {took}",
    "joker-minus-made": "заказ {bid}, взято {took}: 100 × {bid}",
    "joker-minus-short": "заказ {bid}, взято {took}: −100 × {short}",
    "joker-all-tricks": "заказаны и взяты все ({each}): 100 × {each}",
    "joker-bid-made": "заказ {bid}, взято {took}: 50 × ({bid} + 1)",
    "joker-hisht": "заказ {bid}, не взято ни одной: хишт",
    "joker-foul": "заказ {bid}, взято {took}; нарушение наказано: −{penalty} вместо {points}",
    "joker-premium": "премия пульки {pulka}: все заказы сыграны, + свой лучший результат сдачи "
                     "{best}",
    "joker-premium-loss": "премия {seat} в пульке {pulka}: − свой лучший результат сдачи {best}",
    "joker-premium-loss-none": "премия {seat} в пульке {pulka}: свой лучший результат {best} "
                               "отрицательный, ничего не снимается",
    "joker-deal": "пулька {pulka}, карт каждому: {each}, сдаёт {seat}, козырь {trump}",
    "joker-fouls-let-go": "{seat}: нарушений без наказания: {count}",
    "joker-pulka-end": "конец пульки {pulka}: премии учтены",
    "joker-won": "побеждает {seat}: {points}",
    "joker-tie": "ничья по {points}: {seats}",
    # Bazar-Belot (§4)
    "bazar-all-passed": "все четверо сказали «пас»: пересдача",
    "bazar-ramki7": "{seat} объявил Рамки 7: сдача окончена без результата",
    "bazar-ramki8": "Рамки 8: все конструкции отменены (Бэла считается)",
    "bazar-constructions-lost": "конструкции пары {side} проигрывают лучшей конструкции пары "
                                "{winner_side}",
    "bazar-visty": "висты пары {side}: {parts} = {total} (взяток: {tricks})",
    "part-capot": "капот {points}",
    "part-cards": "карты {points}",
    "part-cards-last": "карты {points} + последняя взятка 10",
    "part-constructions": "конструкции {points}",
    "part-bela": "Бэла {points}",
    "bazar-kapo-plus-test": "проверка Капо + {plus}: реальные висты пары {side} {real} ({parts}) "
                            "{cmp} {deck} + 10 × {plus} = {target}",
    "bazar-foul-defenders": "{rule}: пара {side} проигрывает сдачу — контракт сыгран, защита "
                            "получает 0",
    "bazar-foul-contract": "{rule}: пара {side} проигрывает сдачу — контракт не сыгран",
    "need-visty": "нужно вистов: {visty}",
    "need-every-trick": "нужны все взятки",
    "need-every-trick-visty": "нужны все взятки и вистов по реальным очкам карт, конструкциям и "
                              "Бэле: {visty}",
    "need-foul": "нарушение: {seat}",
    "contract-made": "контракт {contract} сыгран ({need}): M {m} × N {n}",
    "visty": "висты {visty} / 10",
    "bazar-foul-zero": "нарушение ({seat}): защита получает 0 за сдачу (висты {visty} не "
                       "считаются)",
    "contract-failed": "контракт {contract} не сыгран ({need})",
    "bazar-foul-both": "нарушения у обеих пар: защита получает 0 за сдачу",
    "contract-failed-defenders": "контракт {contract} не сыгран: M {m} × N {n}",
    "failed-capot-bonus": "все взятки у защиты",
    "failed-bonus": "премия за несыгранный контракт",
    "constructions": "конструкции {points} / 10",
    "bazar-won": "пара {side} выигрывает {won}–{lost} (больше очков)",
    "bazar-won-equal": "пара {side} выигрывает {won}–{lost} (поровну: побеждает пара последнего "
                       "контракта)",
    # Terz (§5)
    "terz-deal": "сдаёт {seat}, козырь {trump}",
    "terz-group": "{name} от {card}",
    "terz-marriage": "козырный марьяж К+Д",
    "terz-false-declaration": "ложное объявление ({seat}): {declared}",
    "terz-false-declaration-claimed": "пойманное ложное объявление ({seat})",
    "terz-foul-all-offender": "нарушение: все очки сдачи ({points}) уходят сопернику",
    "terz-foul-all-opponent": "нарушение соперника ({offender_seat}): все очки сдачи, "
                              "{own} + {moved} = {total}",
    "terz-foul-both": "нарушения у обоих: 0 вместо {points}",
    "terz-foul-offender": "нарушение: очки за карты и последняя взятка ({points}) уходят сопернику",
    "terz-foul-opponent": "нарушение соперника ({offender_seat})",
    "terz-foul-note": "{rule}",
    "terz-foul-note-unclaimed": "{rule} (не заявлено)",
    "terz-won": "{seat} выигрывает {won} : {lost} (игра до {target})",
}


_EN: dict[str, str] = {
    "card-points": "card points ({tricks} tricks)",
    "last-trick": "last trick",
    "before-first-deal": "before the first deal",
    "combination": "{run} {cards}",
    "combination-beaten": "{seat}: {run} {cards} is beaten by the opponent's ({winner_seat}) best combination and scores nothing",
    "bella": "bella (trump K + Q)",
    "wrong-play-offender": "неправильный бой: all the points ({points}: cards {card_points}, combinations {combinations}, bella {bella}, last trick {last_trick}) go to the opponent, {other_seat}",
    "wrong-play-opponent": "the opponent's ({offender_seat}) неправильный бой: every point of the deal, {own} + {moved} = {total}",
    "wrong-play-both": "неправильный бой by both: 0 instead of {points}",
    "claim-won": "«Партия!» ({seat}): points before and in the deal, without the last trick or the байд test, {before} + {deal} = {total} ≥ {target}: the partie is won",
    "claim-lost": "«Партия!» ({seat}): points before and in the deal, without the last trick or the байд test, {before} + {deal} = {total} < {target}: the partie is lost",
    "claim-failed-foul": "«Партия!» ({seat}) fails: the claimant's illegal play was caught; the partie is lost",
    "pot-dropped": "the hanging points ({pot}) are dropped: the partie is over",
    "short-less": "declarer {declarer} < defender {defender}: the declarer pays 2 stakes",
    "short-equal": "declarer {declarer} = defender {defender}: the declarer pays 1 stake",
    "short-more": "declarer {declarer} > defender {defender}: the declarer wins",
    "bayd-after-wrong-play": "байд: after its неправильный бой the declarer has 0 < {defender}",
    "bayd-declarer": "байд: the declarer's {declarer} < the defender's {defender}, its points go to the defender",
    "bayd-defender": "байд: the declarer's points ({declarer})",
    "hanging-bayd": "висячий байд: declarer and defender tie ({points}), the declarer's points hang",
    "pot-grows": "the hanging points grow: {pot} + {added} = {total}",
    "pot-hangs": "the hanging points ({pot}) wait for a deal with a higher scorer",
    "hanging-bayd-won": "висячий байд of earlier deals ({pot}): the higher scorer of this deal takes it",
    "redeal-passed": "redeal: both passed twice ({card} turned); {seat} speaks first",
    "both-passed-target": "both passed {target}: the defender's points count first",
    "open-cards-bonus": "open-cards bonus (every deal is played with open cards)",
    "short-partie-won": "{seat} (declarer) wins the short partie: {loser_seat} pays {stake}",
    "short-partie-lost": "{seat} (declarer) loses the short partie and pays {winner_seat}: {stakes} × stake = {paid}",
    "partie-won": "{seat} wins the partie {won} : {lost} (reached {target})",
    "partie-won-claim": "{seat} wins the partie {won} : {lost} ({claim_seat}'s «Партия!» stood)",
    "partie-won-failed-claim": "{seat} wins the partie {won} : {lost} ({claim_seat}'s «Партия!» failed)",
    "partie-won-settled": "{seat} wins the partie {won} : {lost} (reached {target}); settlement (501 − {lost}) × {stake} = {owed}",
    "partie-won-claim-settled": "{seat} wins the partie {won} : {lost} ({claim_seat}'s «Партия!» stood); settlement (501 − {lost}) × {stake} = {owed}",
    "partie-won-failed-claim-settled": "{seat} wins the partie {won} : {lost} ({claim_seat}'s «Партия!» failed); settlement (501 − {lost}) × {stake} = {owed}",
    "in-progress": "deal {deal} in progress",
    "in-progress-pot": "deal {deal} in progress, hanging points: {pot}",
    "durak-dealer": "{seat} deals; trump {card}",
    "durak-redealt": "redealt ×{times}: neither player held a trump",
    "durak-first-lowest-trump": "{seat} attacks first: lowest trump {card}",
    "durak-first-winner": "{seat} attacks first: winner of the previous game",
    "durak-win": "out of cards first: wins the game",
    "durak-loser": "{seat} is the durak",
    "durak-draw": "both out of cards: a draw, no point",
    "durak-illegal-defence": "bout {bout}: illegal defence ({seat}, {outcome}): the defender takes the cards instead of «бито»",
    "match-draw": "draw {points} : {points}",
    "durak-match-won": "{seat} wins {won} : {lost}; {loser_seat} is the durak",
    "durak-in-progress": "game {game} in progress, {score}",
    "joker-pass-made": "bid 0 («пас»), took 0: 50",
    "joker-tricks": "bid {bid}, took {took}: 10 × {took}",
    "joker-minus-made": "bid {bid}, took {took}: 100 × {bid}",
    "joker-minus-short": "bid {bid}, took {took}: −100 × {short}",
    "joker-all-tricks": "bid and took all {each}: 100 × {each}",
    "joker-bid-made": "bid {bid}, took {took}: 50 × ({bid} + 1)",
    "joker-hisht": "bid {bid}, took none: хишт",
    "joker-foul": "bid {bid}, took {took}; illegal play penalised: −{penalty} instead of {points}",
    "joker-premium": "premium of pulka {pulka}: made every bid, + own highest deal score {best}",
    "joker-premium-loss": "{seat}'s premium of pulka {pulka}: − own highest deal score {best}",
    "joker-premium-loss-none": "{seat}'s premium of pulka {pulka}: own highest deal score {best} is negative, nothing lost",
    "joker-deal": "pulka {pulka}, {each} cards each, {seat} deals, trump {trump}",
    "joker-fouls-let-go": "{seat}: illegal plays not penalised: {count}",
    "joker-pulka-end": "end of pulka {pulka}: premiums included",
    "joker-won": "{seat} wins with {points}",
    "joker-tie": "tie at {points}: {seats}",
    "bazar-all-passed": "all four passed: redeal",
    "bazar-ramki7": "{seat} announced Рамки 7: the deal ends with no result",
    "bazar-ramki8": "Рамки 8: every construction is cancelled (Бэла still counts)",
    "bazar-constructions-lost": "pair {side}'s constructions lose to pair {winner_side}'s best one",
    "bazar-visty": "висты of pair {side}: {parts} = {total} ({tricks} tricks)",
    "part-capot": "capot {points}",
    "part-cards": "cards {points}",
    "part-cards-last": "cards {points} + last trick 10",
    "part-constructions": "constructions {points}",
    "part-bela": "Бэла {points}",
    "bazar-kapo-plus-test": "Капо + {plus} test: pair {side}'s real висты {real} ({parts}) {cmp} {deck} + 10 × {plus} = {target}",
    "bazar-foul-defenders": "{rule}: pair {side} loses the deal: the contract is made and the defenders score 0",
    "bazar-foul-contract": "{rule}: pair {side} loses the deal: the contract is failed",
    "need-visty": "needs {visty} висты",
    "need-every-trick": "needs every trick",
    "need-every-trick-visty": "needs every trick and {visty} висты of real card points, constructions and Бэла",
    "need-foul": "illegal play by {seat}",
    "contract-made": "contract {contract} made ({need}): M {m} × N {n}",
    "visty": "висты {visty} / 10",
    "bazar-foul-zero": "illegal play by {seat}: the defenders score 0 for the deal (висты {visty} not counted)",
    "contract-failed": "contract {contract} failed ({need})",
    "bazar-foul-both": "illegal plays by both pairs: the defenders score 0 for the deal",
    "contract-failed-defenders": "contract {contract} failed: M {m} × N {n}",
    "failed-capot-bonus": "every trick to the defenders",
    "failed-bonus": "failed contract bonus",
    "constructions": "constructions {points} / 10",
    "bazar-won": "pair {side} wins {won}–{lost} (higher total)",
    "bazar-won-equal": "pair {side} wins {won}–{lost} (equal totals: the pair of the last contract)",
    "terz-deal": "{seat} deals, trump {trump}",
    "terz-group": "{name} from {card}",
    "terz-marriage": "trump marriage K+Q",
    "terz-false-declaration": "false declaration ({seat}): {declared}",
    "terz-false-declaration-claimed": "claimed false declaration ({seat})",
    "terz-foul-all-offender": "illegal play: every point of the deal ({points}) goes to the opponent",
    "terz-foul-all-opponent": "the opponent's ({offender_seat}) illegal play: every point of the deal, {own} + {moved} = {total}",
    "terz-foul-both": "illegal plays by both: 0 instead of {points}",
    "terz-foul-offender": "illegal play: the card points and last trick ({points}) go to the opponent",
    "terz-foul-opponent": "the opponent's ({offender_seat}) illegal play",
    "terz-foul-note": "{rule}",
    "terz-foul-note-unclaimed": "{rule} (not claimed)",
    "terz-won": "{seat} wins {won} : {lost} (game to {target})",
}

# key → (Russian, English), as the catalogue's other tables (table_ui/i18n.py _words)
SHEET_LINES: dict[str, tuple[str, str]] = {k: (ru, _EN[k]) for k, ru in _RU.items()}

"""House-rule options of two-player Belot (docs/rules.md §1), with the defaults of
docs/rules.md."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from engine.settings import SEAT, Settings

GameType = Literal["short", "301", "501", "open150", "open155", "open160"]

TARGETS: dict[str, int] = {"short": 0, "301": 301, "501": 501, "open150": 501, "open155": 501,
                           "open160": 501}
OPEN_BONUS: dict[str, int] = {"open150": 150, "open155": 155, "open160": 160}


class Belot2Settings(Settings):
    game_type: GameType = Field(
        "501",
        description=(
            "partie: short (one deal, settled in stakes), 301 or 501 (deals until a player reaches "
            "the target), open150/open155/open160 (to 501; the proposer plays open and starts with "
            "that bonus)"
        ),
    )
    stake: int = Field(1, ge=1, description="stake of a short partie; value of a point under rozaliev")
    proposer: int = Field(0, ge=0, le=1, json_schema_extra=SEAT,
                          description="open-cards games: the seat that plays open and gets the bonus")
    first_dealer: int = Field(0, ge=0, le=1, json_schema_extra=SEAT,
                              description="seat that deals the first deal")
    lot: int = Field(
        1, ge=0, le=1, json_schema_extra=SEAT,
        description="seat that won the lot (guessing a colour) and speaks first in the first deal",
    )
    first_speaker: Literal["loser", "non_dealer"] = Field(
        "loser",
        description=(
            "who speaks first (and leads): the loser of the previous deal, by lot in the first "
            "(seed 000), or always the non-dealer (Rozaliev)"
        ),
    )
    sequence_order: Literal["AKQJT987", "ATKQJ987"] = Field(
        "AKQJT987",
        description="card order for terz/fifty sequences (ATKQJ987: some companies, after Rozaliev)",
    )
    second_open_card: bool = Field(
        True, description="after bidding, one more shoe card is turned as a second open card")
    claims: bool = Field(True, description="«Партия!» claims are allowed in long games")
    rozaliev: bool = Field(
        False,
        description=(
            "Rozaliev's variant: game to 501, the non-dealer speaks first, no second open card, "
            "settlement (501 - loser's points) x stake"
        ),
    )

    @field_validator("game_type", mode="before")
    @classmethod
    def _numbers_as_text(cls, value: Any) -> Any:
        return str(value) if isinstance(value, int) else value

    @model_validator(mode="after")
    def _rozaliev_is_consistent(self) -> Belot2Settings:
        if not self.rozaliev:
            return self
        given = self.model_fields_set
        clashes = []
        if "game_type" in given and self.game_type != "501":
            clashes.append(f"game_type={self.game_type} (Rozaliev plays to 501)")
        if "first_speaker" in given and self.first_speaker != "non_dealer":
            clashes.append("first_speaker=loser (under Rozaliev the non-dealer speaks first)")
        if "second_open_card" in given and self.second_open_card:
            clashes.append("second_open_card=true (Rozaliev turns no second card)")
        if clashes:
            raise ValueError("rozaliev=true contradicts " + "; ".join(clashes))
        return self

"""House-rule options of Bazar-Belot, with the defaults of docs/rules.md §4."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, field_validator

from engine.settings import SEAT, Settings


class BazarSettings(Settings):
    first_dealer: int | None = Field(
        None, ge=0, le=3, json_schema_extra=SEAT,
        description="seat of the first dealer; empty (default): drawn by lot at the table and "
        "recorded by a `N dealer` event before the first card",
    )
    deal_pattern: Literal["4+4", "3+2+3"] = Field(
        "4+4", description="packets each player gets, clockwise from the dealer's left")
    target: int = Field(301, ge=1, description="points that end the partie")
    four_passes: Literal["next_dealer", "same_dealer"] = Field(
        "next_dealer",
        description="who redeals when all four pass: the next dealer clockwise (the deal is void, "
        "like Рамки 7) or the same dealer",
    )
    max_bid: int = Field(
        40, ge=20, le=99,
        description="highest N the seat panels offer for a normal bid (10 × N висты)")
    max_kapo_plus: int = Field(
        20, ge=0, le=99, description="highest K the seat panels offer for «Капо + K»")
    kapo_n: int = Field(25, ge=1, description="N a Капо counts as in a suit or БК game")
    kapo_n_vk: int = Field(35, ge=1, description="N a Капо counts as in ВК")
    failed_bonus: int = Field(
        16, ge=0, description="defenders' extra points when a suit or БК contract fails")
    failed_bonus_vk: int = Field(26, ge=0, description="defenders' extra points when a ВК contract fails")
    failed_capot_bonus: int = Field(
        25, ge=0, description="instead of failed_bonus when the defenders took every trick")
    failed_capot_bonus_vk: int = Field(
        35, ge=0, description="instead of failed_bonus_vk when the defenders took every trick")
    capot_points: int = Field(
        252, ge=0, description="card points (last trick included) of a pair that took every trick")
    capot_points_vk: int = Field(348, ge=0, description="the same in ВК")

    @field_validator("first_dealer", mode="before")
    @classmethod
    def _lot_words(cls, value: Any) -> Any:
        """``first_dealer=`` / ``lot`` / ``none`` on a command line or in a record mean by lot."""
        if isinstance(value, str) and value.strip().lower() in ("", "lot", "none"):
            return None
        return value

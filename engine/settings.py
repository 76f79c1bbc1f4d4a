"""House-rule settings: typed, named options with the defaults of docs/rules.md.

Each game subclasses :class:`Settings`. Values are validated by pydantic, so a record's
``option game_type=301`` line and a CLI ``--option game_type=301`` go through the same checks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.errors import SettingsError

Policy = Literal["retract", "penalize", "on_claim"]

# a setting whose value is a seat (0 … seats − 1): forms offer the players' names for it
SEAT: dict[str, Any] = {"seat": True}


def is_seat(field: Any) -> bool:
    """Whether a settings field (pydantic ``FieldInfo``) holds a seat."""
    extra = getattr(field, "json_schema_extra", None)
    return isinstance(extra, dict) and bool(extra.get("seat"))


class Settings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    policy: Policy = Field(
        "penalize",
        description=(
            "what follows an illegal play at the table: retract (it must be taken back), "
            "penalize (the game's penalty applies at scoring), on_claim (only if the victim claims)"
        ),
    )

    @classmethod
    def build(cls, options: Mapping[str, Any] | None = None) -> Settings:
        try:
            return cls.model_validate(dict(options or {}))
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in err['loc']) or 'option'}: {err['msg']}"
                for err in exc.errors()
            )
            known = ", ".join(cls.model_fields)
            raise SettingsError(f"bad options for this game ({problems}); known options: {known}") from None

    def changed(self) -> dict[str, Any]:
        """The options that differ from the defaults (what a record writes)."""
        return self.model_dump(mode="json", exclude_defaults=True)

    def as_dict(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


def parse_option(text: str) -> tuple[str, str]:
    """``key=value`` → (key, value), for CLI and record lines."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise SettingsError(f"option {text!r} is not key=value")
    return key.strip(), value.strip()

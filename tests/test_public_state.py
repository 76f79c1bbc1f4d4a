"""The one typed public state (``controller.public.PublicState``): every state the controller
publishes — through a whole game of random sensible and noisy inputs, in all five games, and the
organiser's richer one — is a valid ``PublicState``; ``/api/state`` is declared with it in the
OpenAPI schema (and tests/test_ui_schema.py checks the answers against that schema)."""

from __future__ import annotations

import random

import pytest
from _random_inputs import random_input

from controller.public import PublicState
from engine.registry import GAMES
from table_ui.app import create_app

NAMES = {"belot2": 2, "durak2": 2, "joker": 4, "bazar": 4, "terz": 2}


@pytest.mark.parametrize("game", GAMES)
def test_every_published_state_is_a_public_state(make_controller, game: str) -> None:
    assert set(NAMES) == set(GAMES)
    ctl = make_controller(game, {}, [f"Игрок {i + 1}" for i in range(NAMES[game])])
    published: list[PublicState] = []  # what the listeners (displays, speech, LEDs) get
    ctl.subscribe(published.append)
    rng = random.Random(game)
    for _ in range(400):
        if ctl.game is None or ctl.game.is_over:
            break
        ctl.submit(random_input(ctl, rng.randrange))
    assert len(published) > 50
    seen = set()
    assert all(isinstance(p, PublicState) for p in published)
    assert [p.seq for p in published] == sorted(p.seq for p in published)  # in log order
    for state in [*(p.to_json() for p in published), ctl.public_state(), ctl.admin_state()]:
        model = PublicState.model_validate(state)  # the JSON the pages get is the model's
        assert model.to_json()["seq"] == state["seq"]
        seen |= {k for k in ("pending", "cursor", "view") if state.get(k)}
        for alert in model.alerts:
            seen.add(alert.level)
    assert "view" in seen and seen & {"warning", "illegal", "info"}, seen


def test_the_state_route_declares_the_model() -> None:
    schema = create_app(None).openapi()  # type: ignore[arg-type]
    ok = schema["paths"]["/api/state"]["get"]["responses"]["200"]["content"]["application/json"]
    assert ok["schema"] == {"$ref": "#/components/schemas/PublicState"}
    fields = schema["components"]["schemas"]["PublicState"]["properties"]
    assert {"seq", "view", "pending", "alerts", "devices"} <= set(fields)
    assert "TableView" in schema["components"]["schemas"]

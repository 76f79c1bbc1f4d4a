"""Table config: panel id -> seat, loaded from TOML or JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from firmware_bridge.config import ConfigError, PanelConfig, load_config


def test_load_toml_under_panels_table(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text(
        """
[panels]
seats_from = 0
by_id_dirs = ["/dev/serial/by-id", "/run/panels"]

[[panels.seats]]
seat = 0
panel_id = "pico-e6614103e7"
name = "Север"

[[panels.seats]]
seat = 1
panel_id = "pico-aa01"
""",
        encoding="utf-8",
    )
    config = load_config(path)
    assert config.seat_for("pico-e6614103e7") == 0
    assert config.seat_for("pico-aa01") == 1
    assert config.seat_for("pico-unknown") is None
    assert config.seats[0].name == "Север"
    assert config.by_id_dirs == ["/dev/serial/by-id", "/run/panels"]
    assert config.baudrate == 115200


def test_load_json(tmp_path: Path) -> None:
    path = tmp_path / "table.json"
    path.write_text(json.dumps({"seats": [{"seat": 4, "panel_id": "p4"}], "seats_from": 0,
                                "use_list_ports": False}))
    config = load_config(path)
    assert config.seat_for("p4") == 4 and not config.use_list_ports


def test_two_panels_for_one_seat_is_rejected() -> None:
    with pytest.raises(ValidationError, match="seat 2 is claimed by two panels"):
        PanelConfig.from_mapping({"a": 2, "b": 2})


def test_one_panel_at_two_seats_is_rejected() -> None:
    with pytest.raises(ValidationError, match="listed for seats 1 and 3"):
        PanelConfig.model_validate({"seats_from": 0, "seats": [{"seat": 1, "panel_id": "a"},
                                                               {"seat": 3, "panel_id": "a"}]})


@pytest.mark.parametrize("bad", [{"seat": -1, "panel_id": "a"}, {"seat": 8, "panel_id": "a"},
                                 {"seat": 1, "panel_id": ""},
                                 {"seat": 1, "panel_id": "a", "colour": "red"}])
def test_bad_seat_entries_are_rejected(bad: dict) -> None:
    with pytest.raises(ValidationError):
        PanelConfig.model_validate({"seats_from": 0, "seats": [bad]})


def test_seats_count_from_0() -> None:
    config = PanelConfig.model_validate({"seats_from": 0, "seats": [{"seat": 0, "panel_id": "a"},
                                                                    {"seat": 7, "panel_id": "b"}]})
    assert (config.seat_for("a"), config.seat_for("b")) == (0, 7)
    assert PanelConfig.from_mapping({"a": 0}).seat_for("a") == 0
    assert [(s.panel_id, s.seat) for s in PanelConfig.for_simulated_seats(2).seats] == [
        ("sim-seat-0", 0), ("sim-seat-1", 1)]
    assert PanelConfig().seats == []  # no seats: nothing to renumber, no marker needed


@pytest.mark.parametrize("fmt", ["toml", "json"])
def test_a_file_from_when_seats_counted_from_1_is_refused(tmp_path: Path, fmt: str) -> None:
    # Seats 1 and 2 are valid seats today, so reading this file as it stands would move every
    # player one seat on. It must be refused with one line naming the key and its line.
    path = tmp_path / f"table.{fmt}"
    if fmt == "toml":
        path.write_text('[panels]\nscan_interval_s = 0.5\n\n[[panels.seats]]\nseat = 1\n'
                        'panel_id = "a"\n[[panels.seats]]\nseat = 2\npanel_id = "b"\n',
                        encoding="utf-8")
        where = "line 5: panels.seats[0].seat"
    else:
        path.write_text(json.dumps({"seats": [{"seat": 1, "panel_id": "a"}]}, indent=1),
                        encoding="utf-8")
        where = "line 4: seats[0].seat"
    with pytest.raises(ConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert message.startswith(f"{path}: {where}: seats now count from 0"), message
    assert "seats_from = 0" in message and "\n" not in message


def test_seats_from_other_than_0_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text('seats_from = 1\n[[seats]]\nseat = 1\npanel_id = "a"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"line 1: seats_from: must be 0, not 1"):
        load_config(path)


def test_broken_toml_names_the_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text('[[seats]]\nseat = 1\npanel_id = "pico-a\n', encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert str(path) in message and "line 3" in message and "\n" not in message


def test_broken_json_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "table.json"
    path.write_text('{"seats": [\n  {"seat": 1,}\n]}', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"line 2"):
        load_config(path)


def test_two_panels_on_one_seat_in_a_file_names_the_key(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text('[panels]\nseats_from = 0\n[[panels.seats]]\nseat = 2\npanel_id = "a"\n'
                    '[[panels.seats]]\nseat = 2\npanel_id = "b"\n', encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert "panels.seats" in message and "seat 2 is claimed by two panels" in message
    assert "\n" not in message


def test_bad_value_in_a_file_names_the_key(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text('baudrate = "fast"\nseats_from = 0\n[[seats]]\nseat = 9\npanel_id = "a"\n',
                    encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert "seats[0].seat" in message and "baudrate" in message and "\n" not in message


@pytest.mark.parametrize("content", [None, b"\xff\xfe not text", "[1, 2]"])
def test_unreadable_config_is_a_config_error(tmp_path: Path, content: object) -> None:
    path = tmp_path / ("table.json" if content == "[1, 2]" else "table.toml")
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    with pytest.raises(ConfigError, match=str(path)):
        load_config(path)

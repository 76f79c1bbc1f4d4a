"""The table config: the example parses and passes check; every error names its key and line."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from cardtable.cli import main
from controller.config import EXAMPLE, ConfigError, key_lines, load_config, parse_config


def errors_of(text: str) -> list[str]:
    with pytest.raises(ConfigError) as info:
        parse_config(text, "t.toml")
    return info.value.errors


def test_example_parses_and_passes_check(tmp_path: Path, capsys) -> None:
    tomllib.loads(EXAMPLE)
    cfg = parse_config(EXAMPLE)
    assert cfg.cameras["shoe"].kind == "picamera2" and cfg.gpio.card_sensor == 25
    assert [(s.panel_id, s.seat) for s in cfg.panels.seats] == [("panel-a", 0), ("panel-b", 1)]
    path = tmp_path / "table.toml"
    assert main(["config", "init", str(path)]) == 0
    assert path.read_text(encoding="utf-8") == EXAMPLE
    assert main(["config", "init", str(path)]) == 2  # no silent overwrite
    assert main(["config", "check", str(path)]) == 0
    assert "ok" in capsys.readouterr().out
    assert main(["config", "init"]) == 0 and capsys.readouterr().out == EXAMPLE


def test_defaults_for_an_empty_file() -> None:
    cfg = parse_config("")
    assert cfg.gpio.factory == "lgpio" and cfg.web.port == 8000 and cfg.cameras == {}


def line_of_text(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


@pytest.mark.parametrize(("change", "needle", "expect"), [
    (("fps = 30", "fps = 0"), "fps = 0", "cameras.shoe.fps: Input should be greater than 0"),
    (("bounce_s = 0.05 ", "bounce_s = 0.05\nbogus = 1 "), "bogus", "gpio.bogus: unknown key"),
    (("cancel = 27", "cancel = 17"), "cancel = 17",
     "gpio.buttons.cancel: GPIO17 is already used by buttons.new_deal"),
    (("buzzer = 24", "buzzer = 40"), "buzzer = 40", "gpio.buzzer: GPIO40 is not a header pin"),
    (('factory = "lgpio"', 'factory = "pigpio"'), "pigpio", "gpio.factory: Input should be"),
    (('default = "belot2"', 'default = "poker"'), "poker", "game.default: unknown game 'poker'"),
    (('exposure = 4000', 'exposure = "bright"'), "bright", "cameras.shoe.exposure:"),
    (('exposure = 4000', 'exposure = 0'), "exposure = 0", "cameras.shoe.exposure: exposure must"),
    (('kind = "picamera2"\n', 'kind = "webcam"\n'), "webcam", "cameras.shoe.kind: Input should be"),
    (('kind = "picamera2"\n', 'kind = "file"\n'), "[cameras.shoe]",
     "cameras.shoe.path: a file camera needs path"),
    (('kind = "picamera2"\n', 'kind = "v4l2"\npath = "x.mp4"\n'), 'path = "x.mp4"',
     "cameras.shoe.path: only a file camera has a path"),
    (("port = 8000", "port = 70000"), "port = 70000", "web.port: Input should be less than"),
    (('# admin_pin_hash = "scrypt', 'admin_pin_hash = "1234" # '), "admin_pin_hash",
     "web.admin_pin_hash: not a PIN hash"),
    (("footage_budget_mb = 2048", "footage_budget_mb = -1"), "footage_budget_mb",
     "table.footage_budget_mb: Input should be greater than or equal to 0"),
    (("scan_interval_s = 0.5", "scan_interval_s = 0.5\nspeed = 3"), "speed = 3",
     "panels.speed: unknown key"),
    (("seat = 1\n", "seat = 9\n"), "seat = 9",
     "panels.seats.1.seat: seat 9 is not 0 to 7 (seats count from 0)"),
    (("seat = 1\n", "seat = 0\n"), "[[panels.seats]]", "panels.seats: seat 0 is claimed by two"),
    # a file from when seats counted from 1 (no seats_from): refused, never shifted by one
    (("seats_from = 0 ", "# seats_from = 0 "), "seat = 0",
     "panels.seats.0.seat: seats now count from 0"),
    (("seats_from = 0 ", "seats_from = 1 "), "seats_from = 1",
     "panels.seats_from: must be 0, not 1"),
    (('panel_id = "panel-b"\n', ''), "[[panels.seats]]", "panels.seats.1.panel_id: required key"),
    (("[web]", "[webb]"), "[webb]", "webb: unknown key"),
])
def test_every_error_names_key_and_line(change: tuple[str, str], needle: str,
                                        expect: str) -> None:
    old, new = change
    assert old in EXAMPLE
    text = EXAMPLE.replace(old, new, 1)
    errors = errors_of(text)
    assert len(errors) == 1, errors
    line = line_of_text(text, needle)
    if needle == "[[panels.seats]]":
        line = [n for n, s in enumerate(text.splitlines(), 1) if needle in s][
            1 if "required" in expect else 0]
    assert errors[0].startswith(f"t.toml:{line}: {expect}"), (errors[0], line)


def test_several_errors_each_on_its_line() -> None:
    text = "[web]\nport = 0\nhots = 'x'\n\n[gpio]\nhold_s = 0\n"
    assert errors_of(text) == [
        "t.toml:2: web.port: Input should be greater than or equal to 1",
        "t.toml:3: web.hots: unknown key",
        "t.toml:6: gpio.hold_s: Input should be greater than 0",
    ]


def test_syntax_errors_carry_tomllibs_line() -> None:
    assert errors_of("[table]\nname = \n") == [
        "t.toml:2: TOML syntax error: Invalid value (column 8)"]


def test_key_lines_dotted_keys_inline_tables_and_arrays_of_tables() -> None:
    text = ('a.b = 1\n[x]\n"q".r = 2\ns = {t = 1}\n[[y]]\nz = 1\n[[y]]\nz = 2\n'
            'm = """\nk = 3\n"""\n')
    lines = key_lines(text)
    assert lines[("a", "b")] == 1 and lines[("x", "q", "r")] == 3 and lines[("x", "s")] == 4
    assert lines[("y", 0, "z")] == 6 and lines[("y", 1, "z")] == 8
    assert ("y", 1, "k") not in lines  # inside a multi-line string


def test_check_command_exit_status_and_one_line_errors(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[gpio]\nfactory = 'x'\nbogus = 2\n", encoding="utf-8")
    assert main(["config", "check", str(bad)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [f"error: {bad}:2: gpio.factory: Input should be 'lgpio', 'rpigpio' or 'mock'",
                   f"error: {bad}:3: gpio.bogus: unknown key"]
    assert main(["config", "check", str(tmp_path / "none.toml")]) == 2
    assert "cannot read the config" in capsys.readouterr().err
    with pytest.raises(ConfigError):
        load_config(tmp_path)  # a directory


def test_the_club_section() -> None:
    cfg = parse_config('[club]\nbroker = "mqtt://club.local:1883"\nclub = "spb"\n'
                       'table = "table-1"\nusername = "spb-table-1"\npassword = "s3cret"\n')
    assert cfg.club is not None
    assert (cfg.club.broker, cfg.club.club, cfg.club.table) == ("mqtt://club.local:1883", "spb",
                                                               "table-1")
    assert parse_config("").club is None
    with pytest.raises(ConfigError) as bad:
        parse_config('[club]\nbroker = "http://club.local"\ntable = "стол 1"\n', "t.toml")
    text = "\n".join(bad.value.errors)
    assert "club.broker" in text and "club.table" in text

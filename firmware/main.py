"""Seat panel reference firmware for a Raspberry Pi Pico running MicroPython.

Talks the panel protocol (protocol.py, identical to firmware_bridge/protocol.py) over the USB
serial port: debounced buttons with long press, LEDs that blink and pulse, an optional buzzer.
Copy firmware/*.py to the board (see firmware/README.md); it starts on power-up.
"""

import random
import select
import sys
import time

import board
import machine
import micropython
import protocol as p
from buttons import Button
from leds import Effect

PWM_FREQ = 1000
LOOP_MS = 2


class Clock:
    """Milliseconds since start. time.ticks_ms() wraps around; the protocol module wants
    plain subtraction, so the differences are summed here."""

    def __init__(self):
        self.last = time.ticks_ms()
        self.total = 0

    def __call__(self):
        now = time.ticks_ms()
        self.total += time.ticks_diff(now, self.last)
        self.last = now
        return self.total


def panel_id():
    # Burned into the flash chip: the same id on every boot and every USB port.
    return "pico-" + "".join(f"{b:02x}" for b in machine.unique_id())


class Hardware:
    def __init__(self, clock):
        self.clock = clock
        self.buttons = []  # [(pin, Button)]
        for bid, _name, gpio in board.BUTTONS:
            pin = machine.Pin(gpio, machine.Pin.IN, machine.Pin.PULL_UP)
            self.buttons.append((pin, Button(bid)))
        self.leds = {}
        for lid, _name, _caps, gpios in board.LEDS:
            pwms = []
            for gpio in gpios:
                pwm = machine.PWM(machine.Pin(gpio))
                pwm.freq(PWM_FREQ)
                pwm.duty_u16(0)
                pwms.append(pwm)
            self.leds[lid] = [pwms, Effect()]
        self.buzzer = None
        self.buzz_until = 0
        if board.BUZZER_PIN is not None:
            self.buzzer = machine.PWM(machine.Pin(board.BUZZER_PIN))
            self.buzzer.duty_u16(0)

    def on_led(self, led, mode, colour, period_ms):
        if led not in self.leds:
            return False
        self.leds[led][1] = Effect(mode, colour, period_ms, self.clock())
        return True

    def on_buzzer(self, freq_hz, duration_ms):
        if self.buzzer is None:
            return
        self.buzzer.freq(max(freq_hz, 20))
        self.buzzer.duty_u16(32768)
        self.buzz_until = self.clock() + duration_ms

    def refresh(self, now):
        for pwms, effect in self.leds.values():
            duties = effect.duties(now)
            if len(pwms) == 1:
                pwms[0].duty_u16(max(duties))
            else:
                for i in range(3):  # no zip(strict=) in MicroPython
                    pwms[i].duty_u16(duties[i])
        if self.buzzer is not None and self.buzz_until and now >= self.buzz_until:
            self.buzzer.duty_u16(0)
            self.buzz_until = 0

    def all_off(self):
        for pwms, _effect in self.leds.values():
            for pwm in pwms:
                pwm.duty_u16(0)
        if self.buzzer is not None:
            self.buzzer.duty_u16(0)


def escape_hatch():
    """Hold `undo` while plugging in to skip the firmware and get the REPL."""
    for _bid, name, gpio in board.BUTTONS:
        if name == "undo":
            return machine.Pin(gpio, machine.Pin.IN, machine.Pin.PULL_UP).value() == 0
    return False


def main():
    if escape_hatch():
        return
    micropython.kbd_intr(-1)  # the line carries binary frames: 0x03 must not mean Ctrl-C
    clock = Clock()
    hw = Hardware(clock)
    out = sys.stdout.buffer
    rx = sys.stdin.buffer
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    leds = [(lid, name, caps) for lid, name, caps, _gpios in board.LEDS]
    buttons = [(bid, name) for bid, name, _gpio in board.BUTTONS]
    panel = p.Panel(
        out.write, clock, panel_id(), board.FIRMWARE_VERSION, buttons, leds,
        p.FEATURE_BUZZER if board.BUZZER_PIN is not None else 0, hw.on_led, hw.on_buzzer,
    )
    panel.boot(random.getrandbits(32))  # ROSC-seeded on the RP2040: a new id each boot
    try:
        while True:
            data = bytearray()
            while poller.poll(0) and len(data) < 64:
                data.extend(rx.read(1))
            if data:
                panel.feed(data)
            now = clock()
            for pin, button in hw.buttons:
                for action, at in button.update(now, pin.value() == 0):
                    panel.button(button.id, action, at - panel.boot_ms)
            panel.service()
            hw.refresh(now)
            time.sleep_ms(LOOP_MS)
    finally:
        hw.all_off()
        micropython.kbd_intr(3)


main()

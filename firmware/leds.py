"""LED effects for the Pico panel firmware: on, off, blink and pulse as PWM duty over time.

Pure logic, tested under CPython; main.py writes the duty values to the PWM pins.
"""

OFF = 0  # same codes as protocol.LED_OFF / LED_ON / LED_BLINK / LED_PULSE
ON = 1
BLINK = 2
PULSE = 3

FULL = 65535  # machine.PWM.duty_u16 range
DEFAULT_PERIOD_MS = 500


class Effect:
    """What one LED is doing since ``start_ms``."""

    def __init__(self, mode=OFF, colour=(255, 255, 255), period_ms=0, start_ms=0):
        self.mode = mode
        self.colour = colour
        self.period_ms = period_ms or DEFAULT_PERIOD_MS
        self.start_ms = start_ms

    def level(self, now_ms):
        """Brightness 0..FULL at ``now_ms``."""
        if self.mode == ON:
            return FULL
        if self.mode == OFF:
            return 0
        phase = (now_ms - self.start_ms) % self.period_ms
        half = self.period_ms // 2 or 1
        if self.mode == BLINK:
            return FULL if phase < half else 0
        # PULSE: a triangle wave, squared so the fade looks even to the eye.
        ramp = phase if phase < half else self.period_ms - phase
        x = min(ramp, half) * FULL // half
        return x * x // FULL

    def duties(self, now_ms):
        """PWM duty for each colour channel (r, g, b) at ``now_ms``."""
        lvl = self.level(now_ms)
        return tuple(c * lvl // 255 for c in self.colour)

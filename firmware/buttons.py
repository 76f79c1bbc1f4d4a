"""Debounced buttons with long press, for the Pico panel firmware (MicroPython).

Pure logic fed with (time, raw level), so it is tested under CPython without a board.
"""

# Same codes as protocol.PRESS / RELEASE / LONG_PRESS (a test keeps them equal); repeated here
# so this module has no imports and loads fast on the Pico.
PRESS = 1
RELEASE = 2
LONG_PRESS = 3

DEBOUNCE_MS = 20
LONG_PRESS_MS = 700


class Button:
    """One button. ``update`` returns [(action, time_ms)] for changes that became certain.

    A level must hold for ``debounce_ms`` before it counts; the reported time is when the level
    first changed, so contact bounce does not skew the panel timestamp.
    """

    def __init__(self, button_id, debounce_ms=DEBOUNCE_MS, long_ms=LONG_PRESS_MS):
        self.id = button_id
        self.debounce_ms = debounce_ms
        self.long_ms = long_ms
        self.raw = False
        self.stable = False
        self.changed_at = 0
        self.pressed_at = 0
        self.long_sent = False

    def update(self, now, pressed):
        out = []
        if pressed != self.raw:
            self.raw = pressed
            self.changed_at = now
        elif pressed != self.stable and now - self.changed_at >= self.debounce_ms:
            self.stable = pressed
            if pressed:
                self.pressed_at = self.changed_at
                self.long_sent = False
                out.append((PRESS, self.changed_at))
            else:
                out.append((RELEASE, self.changed_at))
        if self.stable and not self.long_sent and now - self.pressed_at >= self.long_ms:
            self.long_sent = True
            out.append((LONG_PRESS, self.pressed_at + self.long_ms))
        return out

"""Pin map of the seat panel board (Raspberry Pi Pico). Edit to match your wiring.

Buttons are wired to ground with the internal pull-up on, so pressed reads 0.
"""

# (button id, name, GPIO)
BUTTONS = (
    (1, "pass", 2),  # «Пас»
    (2, "play", 3),  # «Играю»
    (3, "clubs", 4),
    (4, "diamonds", 5),
    (5, "hearts", 6),
    (6, "spades", 7),
    (7, "bid_up", 8),
    (8, "bid_down", 9),
    (9, "bela", 10),  # «Бэла»
    (10, "party", 11),  # «Партия!»
    (11, "take", 12),  # «Беру»
    (12, "beaten", 13),  # «Бито»
    (13, "confirm", 14),
    (14, "undo", 15),
)

# (LED id, name, capability bits, GPIOs): one pin for a plain LED, three (r, g, b) for RGB.
# Capability bits: 0x01 RGB, 0x02 dimmable (see protocol.LED_CAP_*).
LEDS = (
    (1, "turn", 0x02, (16,)),
    (2, "trump", 0x03, (17, 18, 19)),
    (3, "illegal", 0x02, (20,)),
    (4, "trick_won", 0x02, (21,)),
    (5, "error", 0x02, (22,)),
)

BUZZER_PIN = 26  # None if the panel has no buzzer
FIRMWARE_VERSION = "1.0.0"

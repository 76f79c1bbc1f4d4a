"""The overhead table camera: which seat played which card.

A second reader beside the shoe reader (``vision.reader``). It sees the play area from above,
finds cards that came to rest with no hand over them, reads them against the deck taught from the
shoe pass, and says which seat played them. ``calibrate`` maps the camera onto the play area,
``faces`` turns a shoe profile into whole-face templates, ``reader`` is the live reader, ``check``
the organiser's table check. Synthetic overhead clips and their scoring are in ``synth/``.
"""

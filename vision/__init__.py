"""Shoe camera vision: learn a deck from one pass, then read every card dealt from the shoe.

``vision.reader.ShoeReader`` is the reader (frame in, card events out); ``vision.teach`` learns deck
profiles. The synthetic clips it is tested on are made by ``synth/``. See docs/vision.md.
"""

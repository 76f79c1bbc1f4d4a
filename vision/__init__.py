"""Shoe camera vision: learn a deck from one pass, then read every card dealt from the shoe.

``vision.reader.ShoeReader`` is the reader (frame in, card events out); ``vision.teach`` learns deck
profiles; ``vision.footage`` makes synthetic shoe clips with ground truth. See docs/vision.md.
"""

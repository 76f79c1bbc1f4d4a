"""Synthetic footage: the project's own generators of shoe and overhead clips, with their truth.

For tests, benchmarks, ``scripts/make-bundles``, ``cardtable footage ...`` and a ``synthetic``
camera; never on the product's runtime path (a table reads real cameras and recordings).
"""

"""The device back-ends the command line plugs into ``hardware/``: the ones it may not import.

Why: ``hardware/`` imports nothing of the project but the seat panels' bridge, yet a table config
may name a ``synthetic`` camera, whose footage the generator in ``synth/`` renders. The command
line, which wires the packages together, plugs such back-ends in before a config's devices are
opened (``cardtable run``, ``cardtable doctor``).
"""

from __future__ import annotations


def plug() -> None:
    """Register every back-end made outside ``hardware/`` with it."""
    from synth.camera import register

    register()

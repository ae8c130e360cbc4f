"""Aldous-Broder: one random walk over each part, carving into every cell it enters first.

The first-entrance edges of a simple random walk form a uniformly random
spanning tree (Aldous 1990, Broder 1989). The walk must cover its part, so the
time is the grid's cover time, about ``n (log n)^2 / pi`` steps: slow but exact.
"""

from __future__ import annotations

from mazeart._kernels.carve import aldous_broder as _aldous_broder
from mazeart.generators._common import kernel_generator

__all__ = ["aldous_broder"]


aldous_broder = kernel_generator(
    "aldous-broder",
    _aldous_broder,
    description="Aldous-Broder: a covering random walk, every spanning tree equally likely",
    summary="Carve a uniformly random perfect maze with the Aldous-Broder random walk.",
    uniform=True,
    topology=True,
)

"""The colours every figure of the course draws with.

Okabe & Ito (2008) colour-blind-safe palette, used by both styles (most-used colours first:
blue, vermilion and bluish green stay distinguishable under every common colour-vision
deficiency and are dark enough for a projector). The styles' colour cycle
(:func:`ppdm_edu.lecture.lecture_mode`) is this list.
"""
from __future__ import annotations

__all__ = ["OKABE_ITO"]

#: blue, vermilion, bluish green, reddish purple, orange, sky blue, yellow, black
OKABE_ITO = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000"]

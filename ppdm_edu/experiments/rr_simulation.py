"""Moved to :mod:`ppdm_edu.rr_simulation`: the panels and exercises use these simulations, and
they never import ``experiments`` (layers point down). The names stay importable from here for the
notebooks written against the old place."""
from ..rr_simulation import (  # noqa: F401
    MAX_SURVEYS,
    MAX_SWEEP_RECORDS,
    SurveySimulation,
    mrr_theta_sweep,
    simulate_warner_surveys,
)

__all__: list[str] = []

"""Reconstructing the original distribution from perturbed values (Agrawal & Srikant 2000, Sec. 3).

The server sees only ``w_i = x_i + y_i`` and the public noise distribution ``f_Y``. It estimates
the distribution of ``X`` over a partition of the domain into intervals ``I_1..I_m``:

* ``method="bayes"`` -- the paper's iterative Bayes procedure with partitioning (Fig. 1, Eq. 3)::

      Pr'(X in I_p) = 1/n sum_s N(I_s) f_Y(m(I_s) - m(I_p)) Pr(X in I_p)
                                      / sum_t f_Y(m(I_s) - m(I_t)) Pr(X in I_t)

  where ``N(I_s)`` counts the perturbed values in observed bin ``I_s`` and ``m(.)`` is an
  interval's mid-point. The start is uniform.
* ``method="em"`` -- the EM algorithm of Agrawal & Aggarwal (PODS 2001). Same update, but the
  mid-point density ``f_Y(m(I_s) - m(I_p))`` is replaced by the exact probability that a value
  uniform in ``I_p`` lands in the observed bin ``I_s`` after noise (differences of the noise
  CDF). Each update increases the likelihood of the binned data, so EM converges to the
  maximum-likelihood estimate of the interval probabilities.

Both share one vectorized update: with ``A[s, p]`` the (approximate) probability of observed
bin ``s`` given interval ``p`` and ``D = A @ Pr`` the denominators (computed once per iteration
and re-used for every ``p``, the paper's footnote 2), one iteration is
``Pr' = Pr * (A.T @ (N / D)) / n`` -- O(m_w x m) work, no loop over records.

Stopping criterion (Sec. 3, "Stopping Criterion"): the paper compares successive estimates and
stops "when the difference ... becomes very small (1% of the threshold of the chi^2 test)". We
use Pearson's statistic between successive *count* estimates,
``chi2 = sum_p (N_{j+1}(I_p) - N_j(I_p))^2 / N_j(I_p)`` with ``N_j = n Pr_j``, and stop when it
is at most ``tol`` (default 0.01) times the 95 % critical value of chi^2 with ``m - 1`` degrees of
freedom -- the threshold a goodness-of-fit test of one estimate against the other would use.

Examples
--------
>>> import numpy as np
>>> from ppdm_edu import GaussianNoise, perturb, plateau, reconstruct
>>> x = plateau(10_000, 0)
>>> noise = GaussianNoise(0.25)
>>> rec = reconstruct(perturb(x, noise, rng=1), noise, bounds=(0, 1), width=0.05)
>>> rec.probabilities.shape, bool(rec.converged)
((20,), True)
>>> truth = interval_distribution(x, rec.edges)
>>> bool(total_variation(rec.probabilities, truth) < 0.1)
True
"""
from __future__ import annotations

# One concept per private module (each imports only the ones above it; no cycle):
#   _grid       the intervals and observed bins (make_edges, default_n_intervals)
#   _matrix     the response matrix A[s, p] (response_matrix)
#   _convolution  a large A on the equal-width grid as its diagonals (never stored)
#   _stopping   the paper's chi^2 rule and the held-out likelihood (chi2_threshold)
#   _result     the result type (Reconstruction); its posterior is ppdm_edu.posterior's
#   _iteration  Fig. 1 / Eq. 3 on counts per observed bin
#   _binning    perturbed values -> counts per observed bin (and each record's bin)
#   _reconstruct  reconstruct, reconstruct_counts, Reconstructor
#   _metrics    interval_distribution, total_variation, sample_total_variation
from ..posterior import posterior
from ._grid import METHODS, default_n_intervals, make_edges
from ._iteration import DEFAULT_MAX_ITER, MAX_ITER
from ._matrix import response_matrix
from ._metrics import interval_distribution, sample_total_variation, total_variation
from ._reconstruct import Reconstructor, reconstruct, reconstruct_counts
from ._result import Reconstruction
from ._stopping import DEFAULT_TOL, chi2_threshold
from ._stopping import STOP_RULES as STOP_RULES  # reconstruction.STOP_RULES, as before the split

__all__ = [
    "Reconstruction",
    "Reconstructor",
    "reconstruct",
    "reconstruct_counts",
    "response_matrix",
    "make_edges",
    "default_n_intervals",
    "interval_distribution",
    "total_variation",
    "sample_total_variation",
    "posterior",
    "chi2_threshold",
    "METHODS",
    "DEFAULT_MAX_ITER",
    "DEFAULT_TOL",
    "MAX_ITER",
]

# The public names are documented, shown and pickled as ``ppdm_edu.reconstruction.<name>`` (as
# numpy's ``set_module`` does), not under the private module that happens to define them.
for _obj in (Reconstruction, Reconstructor, reconstruct, reconstruct_counts, response_matrix,
             make_edges, default_n_intervals, interval_distribution, total_variation,
             sample_total_variation, chi2_threshold):
    _obj.__module__ = __name__
del _obj

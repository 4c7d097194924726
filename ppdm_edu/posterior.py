"""Knowledge of the distribution reduces privacy: the posterior of one value given its perturbed value.

Agrawal & Aggarwal (PODS 2001): with the (reconstructed) distribution of X as prior, Bayes' rule
``f(x | w) ∝ f_R(w - x) f_X(x)`` gives each record a posterior much narrower than the noise
interval of Agrawal & Srikant's Table 1. :func:`bayes_estimate` summarizes the posterior of every
record, :func:`posterior_interval_width` compares its width with the noise interval, and
:func:`property_posterior` asks for ``P(low <= X <= high | w)``. :func:`posterior` is the same
Bayes' rule on the intervals of a reconstruction (``Reconstruction.posterior`` calls it). The noise enters only through
``noise.logpdf`` (any :class:`ppdm_edu.randomization.Noise`).

Examples
--------
>>> import numpy as np
>>> from ppdm_edu.randomization import GaussianNoise
>>> prior = (np.array([0.0, 0.5, 1.0]), np.array([0.5, 0.5]))
>>> est = bayes_estimate([0.2, 0.8], GaussianNoise(0.1), prior)
>>> est.mean.round(1).tolist()
[0.2, 0.8]
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ._validation import check_finite_1d, check_integer, check_probability, check_real
from .random_state import check_random_state
from .randomization import Noise, check_noise

__all__ = [
    "posterior",
    "BayesEstimate",
    "bayes_estimate",
    "PosteriorPrivacy",
    "posterior_interval_width",
    "property_posterior",
]

# the likelihood of w given an interval: at its mid-point (Eq. 3, "bayes") or averaged over it ("em")
_LIKELIHOODS = ("bayes", "em")
# at most this many grid cells for the prior (the posterior of a block is records x cells)
_MAX_GRID = 100_000


# ---------------------------------------------------------------------------------------------
# One attribute: the posterior of an individual value given its perturbed value
# ---------------------------------------------------------------------------------------------
def posterior(w, edges, probabilities, noise: Noise, method: str = "em") -> np.ndarray:
    """``P(X in I_p | W = w_i)`` for each perturbed value, with ``probabilities`` as the prior.

    Bayes' rule for one record (the start of Sec. 3), discretized: the likelihood of ``w`` given
    ``X in I_p`` is ``f_Y(w - m(I_p))`` (``method="bayes"``, mid-point) or the exact average
    ``[F_Y(w - a_p) - F_Y(w - b_p)] / L_p`` (``method="em"``). A value no interval can produce
    gets the prior as its posterior. Shape (n, m); rows sum to 1.

    This is what an attacker learns about one individual from a good reconstruction (the
    paper's warning: reconstruction gives distributions, not individual values).

    Parameters
    ----------
    w : array-like of float, shape (n,)
        Perturbed values (finite).
    edges : array-like, shape (m + 1,)
        Strictly increasing interval boundaries of the original values.
    probabilities : array-like of float, shape (m,)
        The prior ``Pr(X in I_p)``: non-negative, not all zero (normalized here).
    noise : Noise
        The public noise model.
    method : {"em", "bayes"}, default "em"
        Likelihood of ``w`` given ``X in I_p``: the exact average over the interval (``"em"``)
        or the density at the mid-point (``"bayes"``).

    Returns
    -------
    ndarray, shape (n, m)
        Row ``i`` is the posterior distribution of ``x_i`` over the intervals; rows sum to 1.

    Raises
    ------
    ValueError
        If ``w`` or ``edges`` is invalid, ``probabilities`` has the wrong length or is
        negative or all zero, or ``method`` is unknown.
    TypeError
        If ``noise`` is not a noise model.

    Examples
    --------
    >>> from ppdm_edu import UniformNoise
    >>> posterior([0.9], [0, 1, 2], [0.5, 0.5], UniformNoise(0.5)).round(2).tolist()
    [[0.6, 0.4]]
    """
    values = check_finite_1d(w, "w")
    edges = check_finite_1d(edges, "edges")
    if edges.size < 2 or np.any(np.diff(edges) <= 0):
        raise ValueError("edges must be at least two strictly increasing boundaries")
    prior = check_finite_1d(probabilities, "probabilities")
    if prior.size != edges.size - 1:
        raise ValueError(f"probabilities must have {edges.size - 1} entries, got {prior.size}")
    if (prior < 0).any() or prior.sum() <= 0:
        raise ValueError("probabilities must be non-negative and not all zero")
    prior = prior / prior.sum()
    noise = check_noise(noise)
    if method not in _LIKELIHOODS:
        raise ValueError(f"method must be one of {_LIKELIHOODS}, got {method!r}")
    if method == "em":
        # P(w - b_p < Y <= w - a_p) / L_p, computed without 1 - 1 cancellation in the tails
        like = noise.interval_probability(values[:, None] - edges[None, 1:],
                                          values[:, None] - edges[None, :-1]) / np.diff(edges)[None, :]
    else:
        mid = 0.5 * (edges[:-1] + edges[1:])
        like = noise.pdf(values[:, None] - mid[None, :])
    joint = like * prior[None, :]
    total = joint.sum(axis=1, keepdims=True)
    out = np.where(total > 0, joint / np.where(total > 0, total, 1.0), prior[None, :])
    return out


def _check_pair(bounds):
    if bounds is None:
        return None
    try:
        pair = tuple(float(b) for b in bounds)
    except (TypeError, ValueError):
        raise ValueError(f"bounds must be a pair (low, high), got {bounds!r}") from None
    if len(pair) != 2:
        raise ValueError(f"bounds must be a pair (low, high), got {bounds!r}")
    return pair


def _histogram_prior(prior) -> tuple[np.ndarray, np.ndarray] | None:
    """The checked (edges, probabilities) of a prior given as a histogram (a reconstruction
    result or a tuple); None for a prior given as a density function."""
    if hasattr(prior, "edges") and hasattr(prior, "probabilities"):
        edges, probs = prior.edges, prior.probabilities
    elif isinstance(prior, tuple) and len(prior) == 2 and not callable(prior[0]):
        edges, probs = prior
    elif callable(prior):
        return None
    else:
        raise ValueError(
            "prior must be a reconstruction result (with .edges and .probabilities), a tuple "
            f"(edges, probabilities) or a density function with bounds; got {type(prior).__name__}"
        )
    edges = check_finite_1d(edges, "prior edges")
    probs = check_finite_1d(probs, "prior probabilities")
    if edges.size != probs.size + 1:
        raise ValueError(
            f"prior needs one more edge than probabilities, got {edges.size} edges and "
            f"{probs.size} probabilities"
        )
    if np.any(np.diff(edges) <= 0):
        raise ValueError("prior edges must be strictly increasing")
    if np.any(probs < 0) or probs.sum() <= 0:
        raise ValueError("prior probabilities must be >= 0 with a positive sum")
    return edges, probs


def _grid_bounds(histogram: tuple[np.ndarray, np.ndarray] | None, bounds) -> tuple[float, float]:
    """(low, high) of the grid: ``bounds``, else the histogram's outer edges (a density
    function has no support of its own, so it needs ``bounds``)."""
    if bounds is None:
        if histogram is None:
            raise ValueError("a prior given as a density function needs bounds=(low, high)")
        edges, _probs = histogram
        bounds = (edges[0], edges[-1])
    lo, hi = float(bounds[0]), float(bounds[1])
    if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
        raise ValueError(f"bounds must be finite with low < high, got ({lo}, {hi})")
    return lo, hi


def _density_mass(density, cell) -> np.ndarray:
    """Mass per cell of a prior density function: its value at the cell's midpoint times the
    cell's width (midpoint rule)."""
    mid = 0.5 * (cell[:-1] + cell[1:])
    dens = np.asarray(density(mid), dtype=float)
    if dens.shape != mid.shape or np.any(~np.isfinite(dens)) or np.any(dens < 0):
        raise ValueError("the prior density must return finite values >= 0 for an array input")
    return dens * np.diff(cell)


def _histogram_mass(edges, probs, cell) -> np.ndarray:
    """Exact mass per cell of the step density of a histogram, from its CDF (linear within a
    bin)."""
    cdf = np.concatenate([[0.0], np.cumsum(probs)]) / probs.sum()
    return np.diff(np.interp(cell, edges, cdf))


def _prior_on_grid(prior, bounds, n_grid, noise: Noise):
    """Return (cell_edges, prior mass per cell) for a prior given as a reconstruction result,
    as (edges, probabilities) or as a density callable with ``bounds``."""
    histogram = _histogram_prior(prior)
    lo, hi = _grid_bounds(histogram, bounds)
    if n_grid is None:
        # fine enough that a cell is small against the noise (at most 4,000 cells)
        n_grid = int(np.clip(math.ceil(40.0 * (hi - lo) / noise.std), 400, 4000))
    n_grid = check_integer(n_grid, "n_grid", minimum=10, maximum=_MAX_GRID)
    cell = np.linspace(lo, hi, n_grid + 1)
    if histogram is None:
        mass = _density_mass(prior, cell)
    else:
        edges, probs = histogram
        mass = _histogram_mass(edges, probs, cell)
    if mass.sum() <= 0:
        raise ValueError(f"the prior puts no mass on [{lo}, {hi}]")
    return cell, mass / mass.sum()


def _posterior_chunks(w, noise, cell, mass, chunk_cells=250_000):
    """Yield (slice, posterior mass per cell) for blocks of records (vectorized inside a block)."""
    mid = 0.5 * (cell[:-1] + cell[1:])
    log_mass = np.log(np.where(mass > 0, mass, 1.0)) + np.where(mass > 0, 0.0, -np.inf)
    step = max(1, chunk_cells // mid.size)
    for start in range(0, w.size, step):
        block = slice(start, min(start + step, w.size))
        # Bayes' rule: f(x | w) ∝ f_R(w - x) f_X(x)  (AS2000 Sec. 3, for one record)
        logp = noise.logpdf(w[block, None] - mid[None, :]) + log_mass[None, :]  # no tail underflow
        top = logp.max(axis=1, keepdims=True)
        bad = ~np.isfinite(top[:, 0])
        if bad.any():
            first = float(w[block][bad][0])
            raise ValueError(
                f"{int(bad.sum())} perturbed value(s) (first {first:g}) are impossible under this "
                "prior and noise: the prior's support plus the noise does not reach them"
            )
        post = np.exp(logp - top)
        yield block, post / post.sum(axis=1, keepdims=True)


def _quantile(cdf, cell, q):
    """Row-wise quantile ``q`` (shape (n,)) of piecewise-uniform posteriors; cdf has shape (n, K + 1).

    One ``searchsorted`` over all rows at once: row ``i`` is shifted by ``2 i`` so the
    concatenated, row-wise increasing CDFs form one increasing array.
    """
    n, k1 = cdf.shape
    shift = 2.0 * np.arange(n)
    flat = (cdf + shift[:, None]).ravel()
    pos = np.searchsorted(flat, q + shift, side="left") - np.arange(n) * k1
    idx = np.clip(pos - 1, 0, k1 - 2)  # cell with cdf[idx] < q <= cdf[idx + 1]
    rows = np.arange(n)
    c0, c1 = cdf[rows, idx], cdf[rows, idx + 1]
    gap = c1 - c0
    frac = np.where(gap > 0, (q - c0) / np.where(gap > 0, gap, 1.0), 0.5)
    return cell[idx] + np.clip(frac, 0.0, 1.0) * (cell[idx + 1] - cell[idx])


@dataclass(frozen=True)
class BayesEstimate:
    """Posterior summary of every record: what an attacker who knows the distribution learns.

    Attributes
    ----------
    mean : ndarray, shape (n,)
        Posterior mean E[X | W = w] (the minimum-MSE estimate of the original value).
    lower : ndarray, shape (n,)
        Lower end of each record's posterior ``confidence`` interval.
    upper : ndarray, shape (n,)
        Upper end of each record's posterior ``confidence`` interval.
    std : ndarray, shape (n,)
        Posterior standard deviation.
    confidence : float
        Posterior probability inside each interval.
    interval : str
        ``"central"`` (equal tails) or ``"shortest"``.
    """

    mean: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    std: np.ndarray
    confidence: float
    interval: str

    @property
    def width(self) -> np.ndarray:
        """Width ``upper - lower`` of each record's posterior interval, shape (n,)."""
        return self.upper - self.lower


def bayes_estimate(W, noise: Noise, prior, *, confidence: float = 0.95, bounds=None,
                   interval: str = "central", n_grid=None) -> BayesEstimate:
    """Posterior mean and posterior interval of each record's original value.

    The attacker knows the noise distribution (public) and the distribution of X (public too:
    it is what reconstruction outputs, AS2000 Sec. 3). For each perturbed value ``w``,
    ``f(x | w) ∝ f_R(w - x) f_X(x)``; this is evaluated on a grid of cells over the prior's
    support, vectorized over records (Huang, Du & Chen 2005; Agrawal & Aggarwal 2001).

    Parameters
    ----------
    W : array-like, shape (n,)
        Perturbed values of one attribute.
    noise : Noise
        The noise that was added (e.g. ``GaussianNoise(sigma)``).
    prior : reconstruction result, (edges, probabilities) or callable
        The distribution of X: the result of :func:`ppdm_edu.reconstruct` (anything with
        ``.edges`` and ``.probabilities``), a tuple ``(edges, probabilities)`` of a histogram,
        or a density function (then ``bounds`` is required).
    confidence : float in (0, 1)
        Posterior probability inside the interval.
    bounds : (low, high) or None
        Support of X (default: the histogram's outer edges).
    interval : {"central", "shortest"}
        ``central`` cuts (1 - confidence)/2 in each tail; ``shortest`` is the narrowest
        interval with that probability (the notion behind Table 1).
    n_grid : int or None
        Number of grid cells (default: 40 cells per noise standard deviation, 400 to 4,000).

    Returns
    -------
    BayesEstimate
        Posterior mean, standard deviation and interval of every record.

    Raises
    ------
    ValueError
        If ``W`` is not finite, ``confidence``/``interval``/``bounds``/``n_grid`` is invalid,
        the prior is malformed or puts no mass on ``bounds``, or a perturbed value is
        impossible under the prior and the noise.
    TypeError
        If ``noise`` is not a noise model.

    Examples
    --------
    >>> import numpy as np
    >>> from ppdm_edu import GaussianNoise
    >>> from ppdm_edu.datasets import plateau_pdf
    >>> est = bayes_estimate([0.5, 1.4], GaussianNoise(0.25), plateau_pdf, bounds=(0, 1))
    >>> bool(est.width.max() < GaussianNoise(0.25).interval_width(0.95))
    True
    """
    check_noise(noise)
    w = check_finite_1d(W, "W")
    c = check_probability(confidence, "confidence", open_interval=True)
    if interval not in ("central", "shortest"):
        raise ValueError(f"interval must be 'central' or 'shortest', got {interval!r}")
    cell, mass = _prior_on_grid(prior, _check_pair(bounds), n_grid, noise)
    mid = 0.5 * (cell[:-1] + cell[1:])
    half_width = np.diff(cell) / 2.0
    mean = np.empty(w.size)
    std = np.empty(w.size)
    lower = np.empty(w.size)
    upper = np.empty(w.size)
    tails = np.linspace(0.0, 1.0 - c, 21) if interval == "shortest" else np.array([(1.0 - c) / 2])
    for block, post in _posterior_chunks(w, noise, cell, mass):
        mean[block] = post @ mid
        # each cell is uniform: E[x^2] = mid^2 + h^2 / 3
        second = post @ (mid**2 + half_width**2 / 3.0)
        std[block] = np.sqrt(np.clip(second - mean[block] ** 2, 0.0, None))
        cdf = np.concatenate([np.zeros((post.shape[0], 1)), np.cumsum(post, axis=1)], axis=1)
        cdf[:, -1] = 1.0
        best_lo = best_hi = None
        for t in tails:  # loop over a few tail splits, never over records
            ones = np.ones(post.shape[0])
            lo = _quantile(cdf, cell, t * ones)
            hi = _quantile(cdf, cell, (t + c) * ones)
            if best_lo is None:
                best_lo, best_hi = lo, hi
            else:
                better = (hi - lo) < (best_hi - best_lo)
                best_lo = np.where(better, lo, best_lo)
                best_hi = np.where(better, hi, best_hi)
        lower[block], upper[block] = best_lo, best_hi
    return BayesEstimate(mean, lower, upper, std, c, interval)


@dataclass(frozen=True)
class PosteriorPrivacy:
    """A-priori interval privacy (Table 1) versus what the attacker's posterior leaves.

    Attributes
    ----------
    apriori_width : float
        ``noise.interval_width(confidence)``: 3.92 sigma at 95 % for Gaussian noise (Table 1).
    mean_width : float
        Average width of the posterior intervals over the records.
    median_width : float
        Median width of the posterior intervals over the records.
    ratio : float
        ``mean_width / apriori_width`` (below 1: the paper's measure overstates privacy).
    coverage : float
        Share of records whose true value lies in its posterior interval (close to
        ``confidence`` when the prior is right: the attacker's intervals are honest).
    rmse_posterior_mean : float
        Root-mean-square error of the posterior mean as an estimate of x.
    rmse_perturbed : float
        Root-mean-square error of the perturbed value itself as an estimate of x.
    confidence : float
        Confidence of both the a-priori and the posterior intervals.
    """

    apriori_width: float
    mean_width: float
    median_width: float
    ratio: float
    coverage: float
    rmse_posterior_mean: float
    rmse_perturbed: float
    confidence: float


def posterior_interval_width(x, noise: Noise, prior, *, w=None, confidence: float = 0.95,
                             bounds=None, interval: str = "central", n_grid=None,
                             rng=None) -> PosteriorPrivacy:
    """Compare the paper's a-priori interval privacy with the attacker's posterior intervals.

    Agrawal & Srikant (2000, Table 1) measure privacy by the width of the interval the noise
    alone spreads a value over. Agrawal & Aggarwal (PODS 2001) observed that an attacker who
    also knows the distribution of X (which the reconstruction publishes) learns more; here the
    gap is measured: perturb ``x`` (or take ``w``), run :func:`bayes_estimate`, and summarize.

    Parameters
    ----------
    x : array-like, shape (n,)
        The true values (to check coverage and errors).
    noise : Noise
        The noise model (public).
    prior : reconstruction result, (edges, probabilities) or callable
        The distribution the attacker uses (true or reconstructed); see
        :func:`bayes_estimate`.
    w : array-like, shape (n,), optional
        Perturbed values; default ``x + noise`` drawn with ``rng``.
    confidence : float in (0, 1), default 0.95
        Confidence of the a-priori and the posterior intervals.
    bounds : (low, high) or None
        Support of X (as in :func:`bayes_estimate`).
    interval : {"central", "shortest"}, default "central"
        Kind of posterior interval (as in :func:`bayes_estimate`).
    n_grid : int or None
        Number of grid cells (as in :func:`bayes_estimate`).
    rng : None, int or numpy.random.Generator
        Source of the noise when ``w`` is not given (unused otherwise).

    Returns
    -------
    PosteriorPrivacy
        The a-priori width, the posterior widths, their ratio, the coverage and the errors.

    Raises
    ------
    ValueError
        If ``x`` or ``w`` is not finite, their lengths differ, or :func:`bayes_estimate`
        refuses its arguments.
    TypeError
        If ``noise`` is not a noise model.

    Examples
    --------
    >>> from ppdm_edu import GaussianNoise
    >>> from ppdm_edu.datasets import plateau, plateau_pdf
    >>> r = posterior_interval_width(plateau(2000, 0), GaussianNoise(0.1), plateau_pdf,
    ...                              bounds=(0, 1), rng=1)
    >>> round(r.apriori_width, 3), bool(r.ratio < 1)
    (0.392, True)
    """
    check_noise(noise)
    x = check_finite_1d(x, "x")
    if w is None:
        w = x + noise.sample(x.shape, check_random_state(rng))
    else:
        w = check_finite_1d(w, "w")
        if w.shape != x.shape:
            raise ValueError(f"w has {w.size} values but x has {x.size}")
    est = bayes_estimate(w, noise, prior, confidence=confidence, bounds=bounds,
                         interval=interval, n_grid=n_grid)
    width = est.width
    apriori = float(noise.interval_width(confidence))
    inside = (x >= est.lower) & (x <= est.upper)
    return PosteriorPrivacy(
        apriori_width=apriori,
        mean_width=float(width.mean()),
        median_width=float(np.median(width)),
        ratio=float(width.mean() / apriori),
        coverage=float(inside.mean()),
        rmse_posterior_mean=float(np.sqrt(np.mean((est.mean - x) ** 2))),
        rmse_perturbed=float(np.sqrt(np.mean((w - x) ** 2))),
        confidence=est.confidence,
    )


def property_posterior(W, noise: Noise, prior, low: float, high: float, *, bounds=None,
                       n_grid=None) -> np.ndarray:
    """``P(low <= X <= high | W = w)`` for every perturbed value (a rho1-to-rho2 check).

    Evfimievski, Gehrke & Srikant (PODS 2003) call it an upward rho1-to-rho2 privacy breach when
    a property with prior probability <= rho1 has posterior probability >= rho2 after seeing
    the randomized value. With additive noise the prior of the property is the prior mass of
    [low, high] and its posterior is computed here on the same grid as :func:`bayes_estimate`.

    Parameters
    ----------
    W : array-like, shape (n,)
        Perturbed values of one attribute.
    noise : Noise
        The noise that was added.
    prior : reconstruction result, (edges, probabilities) or callable
        The distribution of X (see :func:`bayes_estimate`).
    low : float
        Lower end of the property ``low <= X <= high`` (finite).
    high : float
        Upper end, ``> low`` (finite).
    bounds : (low, high) or None
        Support of X (default: the histogram's outer edges; required for a density).
    n_grid : int or None
        Number of grid cells (as in :func:`bayes_estimate`).

    Returns
    -------
    ndarray, shape (n,)
        The posterior probability of the property for each record, in [0, 1].

    Raises
    ------
    ValueError
        If ``W`` is not finite, ``low < high`` fails, the prior is malformed, or a perturbed
        value is impossible under the prior and the noise.
    TypeError
        If ``noise`` is not a noise model.

    Examples
    --------
    >>> from ppdm_edu import UniformNoise
    >>> from ppdm_edu.datasets import plateau_pdf
    >>> # uniform noise of half-width 0.5: w = -0.45 forces x <= 0.05
    >>> round(float(property_posterior([-0.45], UniformNoise(0.5), plateau_pdf, 0, 0.05,
    ...                                bounds=(0, 1))[0]), 6)
    1.0
    """
    check_noise(noise)
    w = check_finite_1d(W, "W")
    low, high = check_real(low, "low"), check_real(high, "high")
    if not (math.isfinite(low) and math.isfinite(high) and low < high):
        raise ValueError(f"need finite low < high, got ({low}, {high})")
    cell, mass = _prior_on_grid(prior, _check_pair(bounds), n_grid, noise)
    # share of each cell inside [low, high]
    share = np.clip((np.minimum(cell[1:], high) - np.maximum(cell[:-1], low)) / np.diff(cell), 0, 1)
    out = np.empty(w.size)
    for block, post in _posterior_chunks(w, noise, cell, mass):
        out[block] = np.clip(post @ share, 0.0, 1.0)
    return out

"""The response matrix ``A[s, p] ~ P(observed bin s | X in interval p)`` (Eq. 3's kernel).

Agrawal & Srikant (2000), Sec. 3 (mid-point approximation) and Agrawal & Aggarwal (2001) (exact
interval probabilities, the EM variant).
"""
from __future__ import annotations

import numpy as np

from ..randomization import Noise, check_noise
from ._grid import check_edges, check_method

# A response matrix larger than this (m_w x m entries) would need hundreds of MB.
MAX_MATRIX_ENTRIES = 20_000_000
# entries per block of rows while building it (the block size: benchmarks/engineering_notes.md)
_BLOCK_ENTRIES = 16_000


def below_probability(edges: np.ndarray, c: float, noise: Noise) -> np.ndarray:
    """P(W < c | X ~ Uniform(I_p)) = [G(c - a_p) - G(c - b_p)] / L_p for each interval."""
    a, b = edges[:-1], edges[1:]
    if float(np.min(b - a)) < 1e-4 * noise.std:  # first difference would lose its digits
        return np.clip(noise.cdf(c - 0.5 * (a + b)), 0.0, 1.0)
    try:
        return np.clip((noise.cdf_integral(c - a) - noise.cdf_integral(c - b)) / (b - a), 0, 1)
    except NotImplementedError:
        nodes, weights = np.polynomial.legendre.leggauss(16)
        out = np.zeros(a.size)
        for node, weight in zip(nodes, weights):
            out += 0.5 * weight * noise.cdf(c - (a + 0.5 * (node + 1.0) * (b - a)))
        return out


def response_matrix(edges, noise: Noise, w_edges=None, method: str = "bayes") -> np.ndarray:
    """The ``m_w x m`` matrix ``A[s, p] ~ P(W in observed bin s | X in interval p)``.

    Parameters
    ----------
    edges : array-like, shape (m + 1,)
        Boundaries of the intervals of the original values.
    noise : Noise
        The public noise model.
    w_edges : array-like, shape (m_w + 1,), optional
        Boundaries of the bins the perturbed values are counted in (default: ``edges``).
    method : {"bayes", "em"}
        ``"bayes"``: the paper's mid-point approximation ``f_Y(m(I_s) - m(I_p)) L_s`` (Sec. 3);
        columns sum to about 1 over a grid that covers the noise. ``"em"``: the exact
        probability for a value uniform in ``I_p`` (differences of the noise CDF), as in
        Agrawal & Aggarwal (2001); columns sum to exactly the probability of landing inside
        ``w_edges``.

    Returns
    -------
    ndarray, shape (m_w, m)
        ``A[s, p]``, the probability (``"em"``) or its mid-point approximation (``"bayes"``)
        that a value of interval ``p`` is observed in bin ``s`` after noise.

    Raises
    ------
    ValueError
        If the edges are not strictly increasing, ``method`` is unknown, or the matrix would
        have more than 20 million entries.
    TypeError
        If ``noise`` is not a noise model.

    Examples
    --------
    >>> from ppdm_edu import UniformNoise
    >>> A = response_matrix([0, 1, 2, 3], UniformNoise(0.5), method="em")
    >>> A.round(3).tolist()
    [[0.75, 0.125, 0.0], [0.125, 0.75, 0.125], [0.0, 0.125, 0.75]]
    """
    edges = check_edges(edges)
    w_edges = edges if w_edges is None else check_edges(w_edges, "w_edges")
    noise = check_noise(noise)
    method = check_method(method)
    if (w_edges.size - 1) * (edges.size - 1) > MAX_MATRIX_ENTRIES:
        raise ValueError(
            f"the response matrix would have {(w_edges.size - 1) * (edges.size - 1)} entries "
            f"(more than {MAX_MATRIX_ENTRIES}); use fewer or wider intervals"
        )
    return response_pairs(edges, w_edges[:-1], w_edges[1:], noise, method)



def response_pairs(edges, w_lower, w_upper, noise, method,
                   row_max: np.ndarray | None = None) -> np.ndarray:
    """Response matrix for observed bins ``[w_lower[s], w_upper[s])`` (need not be contiguous).

    ``"em"``: exact P(W in [c_s, d_s) | X ~ Uniform[a_p, b_p)) (Agrawal & Aggarwal 2001),
    ``1/L_p int_{a_p}^{b_p} [F_Y(d_s - x) - F_Y(c_s - x)] dx
    = [G(d_s - a_p) - G(d_s - b_p) - G(c_s - a_p) + G(c_s - b_p)] / L_p`` with ``G' = F_Y``.
    ``"bayes"``: the paper's mid-point approximation ``f_Y(m(I_s) - m(I_p)) L_s`` (Sec. 3).

    ``row_max``: an array of shape (m_w,) to fill with each row's maximum (``P.max(axis=1)``,
    taken block by block).
    """
    m_w, m = w_lower.size, edges.size - 1
    P = np.empty((m_w, m))
    # Blocks of rows: every entry is computed by the same element-wise operations as on the
    # whole matrix (the same numbers); the matrix itself is the only large array.
    rows = max(1, _BLOCK_ENTRIES // max(m, 1))
    # With intervals far narrower than the noise, the exact formula below is a second
    # difference of numbers ~scale apart from values ~L^2 f_Y: it loses every digit. There the
    # mid-point value is exact to O(L^2) relative error, so use it.
    if method == "em" and min(float(np.subtract(edges[1:], edges[:-1]).min()),
                              float(np.subtract(w_upper, w_lower).min())) >= 1e-4 * noise.std:
        a, b = edges[None, :-1], edges[None, 1:]
        L = b - a
        closed_form = True
        for s in range(0, m_w, rows):  # blocks of observed bins (bounded: m_w / rows blocks)
            c, d = w_lower[s:s + rows, None], w_upper[s:s + rows, None]
            block = P[s:s + rows]
            if closed_form:
                try:
                    np.divide(noise.cdf_integral(d - a) - noise.cdf_integral(d - b)
                              - noise.cdf_integral(c - a) + noise.cdf_integral(c - b), L,
                              out=block)
                except NotImplementedError:
                    closed_form = False
            if not closed_form:
                # any other noise model: Gauss-Legendre quadrature of the CDF difference over I_p
                nodes, weights = np.polynomial.legendre.leggauss(16)
                block[...] = 0.0
                for node, weight in zip(nodes, weights):
                    x = a + 0.5 * (node + 1.0) * L
                    block += 0.5 * weight * (noise.cdf(d - x) - noise.cdf(c - x))
            # differences of nearly equal numbers can dip a hair below 0 or above 1
            np.clip(block, 0.0, 1.0, out=block)
            if row_max is not None:
                np.maximum.reduce(block, axis=1, out=row_max[s:s + rows])
        return P
    mx = 0.5 * (edges[:-1] + edges[1:])
    mw = 0.5 * (w_lower + w_upper)
    Lw = w_upper - w_lower
    scale = float(Lw.min())
    atol = 1e-9 * max(scale, noise.scale)
    d = np.empty((min(rows, m_w), m))  # the block's mid-point distances (one buffer, reused)
    for s in range(0, m_w, rows):
        block = P[s:s + rows]
        ds = d[:block.shape[0]]
        np.subtract(mw[s:s + rows, None], mx, out=ds)
        np.multiply(_midpoint_pdf(noise, ds, atol), Lw[s:s + rows, None], out=block)
        if row_max is not None:
            np.maximum.reduce(block, axis=1, out=row_max[s:s + rows])
    return P


def _midpoint_pdf(noise: Noise, d: np.ndarray, atol: float) -> np.ndarray:
    """``f_Y(d)`` for mid-point distances, with the average of the one-sided limits at a jump.

    Mid-point distances are multiples of the interval width up to rounding, so with uniform
    noise whose alpha is such a multiple, rounding alone would decide whether a bin exactly
    alpha away counts (``|d| <= alpha``): the matrix becomes asymmetric and the estimate
    oscillates. At a jump the noise gives the mean of the two limits (the usual convention for
    a discontinuous integrand in a mid-point/trapezoid rule; ``Noise.pdf_averaged_at_jumps``).
    ``atol`` is ``1e-9 * max(scale, noise.scale)``, ``scale`` the narrowest observed bin.

    The distances are differences of finite mid-points (never NaN) and ``atol`` is a finite
    number >= 0, so this calls the method behind ``pdf_averaged_at_jumps`` directly: the same
    numbers without its checks, one of which (NaN) is a pass over the block.
    """
    return noise._pdf_at_jumps(d, atol)


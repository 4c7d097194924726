"""A large response matrix on the equal-width grid is used as a convolution, never stored.

``reconstruct`` with more than ``CONVOLUTION_MIN_ENTRIES`` matrix entries (issue 31: at n = 10^6
and m = 2,000 the dense matrix alone was 76 bytes per value) runs Eq. 3 on
``_convolution.ConvolutionResponse``. Its rows are the dense matrix's rows up to the rounding of
the mid-point distances; here: the entries, both products, the row maxima and row selection
against the dense matrix, and whole reconstructions against the dense path (the same iteration
counts and ignored records, the estimates to ~1e-13).
"""
import tracemalloc

import numpy as np
import pytest

from ppdm_edu import GaussianNoise, UniformNoise, perturb, plateau, triangles
from ppdm_edu.randomization import LaplaceNoise
from ppdm_edu.reconstruction import _reconstruct, reconstruct
from ppdm_edu.reconstruction._convolution import ConvolutionResponse
from ppdm_edu.reconstruction._grid import _make_edges
from ppdm_edu.reconstruction._iteration import finish
from ppdm_edu.reconstruction._matrix import response_pairs

NOISES = [GaussianNoise(0.25), UniformNoise(0.5), LaplaceNoise(0.2)]
# the dense matrix's own rounding: mid-point distances (bayes); the exact formula's second
# difference of the CDF integral loses ~5 digits in both (em)
ENTRY_RTOL = {"bayes": 1e-13, "em": 1e-9}


def grid(m=300):
    edges = _make_edges(0.0, 1.0, m, None, None)
    bins = np.arange(-160, m + 170)
    bins = bins[bins % 7 != 3]  # rows with gaps, as the non-empty bins have
    return edges, 1.0 / m, bins


def dense(edges, L, bins, noise, method):
    ks = bins.astype(float)
    return response_pairs(edges, ks * L, (ks + 1.0) * L, noise, method)


@pytest.mark.parametrize("method", ["bayes", "em"])
@pytest.mark.parametrize("noise", NOISES, ids=repr)
def test_rows_products_and_row_maxima_are_the_dense_matrix(noise, method):
    edges, L, bins = grid()
    A = dense(edges, L, bins, noise, method)
    C = ConvolutionResponse.from_grid(edges, 0.0, L, bins, noise, method)
    tol = ENTRY_RTOL[method] * A.max()
    assert C.shape == A.shape and C.size == A.size
    np.testing.assert_allclose(np.asarray(C), A, rtol=0, atol=tol)
    rng = np.random.default_rng(0)
    pr, r = rng.random(A.shape[1]), rng.random(A.shape[0])
    np.testing.assert_allclose(C @ pr, A @ pr, rtol=0, atol=tol * pr.sum())
    np.testing.assert_allclose(C.T @ r, A.T @ r, rtol=0, atol=tol * r.sum())
    out = np.empty(A.shape[0])
    assert C.dot(pr, out) is out
    np.testing.assert_array_equal(out, C @ pr)
    np.testing.assert_allclose(C.max(axis=1), A.max(axis=1), rtol=0, atol=tol)
    # row selection as finish does it: one run of rows, a mask, indices
    for index in (slice(5, 60), bins % 2 == 0, np.array([0, 3, 4, 200])):
        np.testing.assert_allclose(np.asarray(C[index]), A[index], rtol=0, atol=tol)
        np.testing.assert_allclose(C[index] @ pr, A[index] @ pr, rtol=0, atol=tol * pr.sum())
    np.testing.assert_allclose(np.asarray(C / 4.0), A / 4.0, rtol=0, atol=tol / 4)
    C /= 2.0
    np.testing.assert_allclose(np.asarray(C), A / 2.0, rtol=0, atol=tol / 2)


def test_a_mat_vec_is_not_the_transposed_one():
    # an asymmetric kernel (the grid's rows do not mirror its columns): swapping the two
    # products, or reading a window forwards instead of backwards, fails
    edges, L, bins = grid(40)
    bins = bins[bins > -30]
    A = dense(edges, L, bins, GaussianNoise(0.05), "bayes")
    C = ConvolutionResponse.from_grid(edges, 0.0, L, bins, GaussianNoise(0.05), "bayes")
    pr = np.linspace(1.0, 2.0, 40) ** 3
    assert np.abs(A @ pr - C @ pr).max() < 1e-12 * np.abs(A @ pr).max()
    assert np.abs(A @ pr[::-1] - C @ pr).max() > 1e-3 * np.abs(A @ pr).max()


def reconstruct_both(monkeypatch, w, noise, m, **kw):
    """(convolution path, dense path) of the same reconstruction."""
    calls = []
    real = ConvolutionResponse.from_grid.__func__

    def counting(cls, *args):
        calls.append(args)
        return real(cls, *args)

    monkeypatch.setattr(ConvolutionResponse, "from_grid", classmethod(counting))
    conv = reconstruct(w, noise, bounds=(0, 1), n_intervals=m, **kw)
    assert len(calls) == 1, "the convolution path did not run"
    monkeypatch.setattr(_reconstruct, "CONVOLUTION_MIN_ENTRIES", 10**12)
    dense_rec = reconstruct(w, noise, bounds=(0, 1), n_intervals=m, **kw)
    assert len(calls) == 1
    return conv, dense_rec


@pytest.mark.parametrize("method", ["bayes", "em"])
@pytest.mark.parametrize("noise", NOISES, ids=repr)
def test_reconstruction_as_a_convolution_is_the_dense_one(monkeypatch, noise, method):
    x = triangles(200_000, 0)
    w = perturb(x, noise, rng=1)
    m = 1200
    conv, dense_rec = reconstruct_both(monkeypatch, w, noise, m, method=method, keep_history=True)
    assert conv.n_iter == dense_rec.n_iter and conv.converged == dense_rec.converged
    assert conv.n_ignored == dense_rec.n_ignored
    atol = 1e-12 if method == "bayes" else 1e-8
    np.testing.assert_allclose(conv.probabilities, dense_rec.probabilities, rtol=0, atol=atol)
    np.testing.assert_allclose(conv.history, dense_rec.history, rtol=0, atol=atol)
    assert conv.statistic == pytest.approx(dense_rec.statistic, rel=1e-6)


def test_values_no_interval_can_produce_are_ignored_as_before(monkeypatch):
    # uniform noise: values beyond alpha from the domain are impossible rows (dropped)
    noise = UniformNoise(0.5)
    w = perturb(plateau(300_000, 0), noise, rng=1)
    w[:50], w[50:60] = 7.0, -9.0
    conv, dense_rec = reconstruct_both(monkeypatch, w, noise, 2000, keep_history=False)
    assert conv.n_ignored == dense_rec.n_ignored == 60
    assert conv.n_iter == dense_rec.n_iter
    np.testing.assert_allclose(conv.probabilities, dense_rec.probabilities, rtol=0, atol=1e-12)


def test_rows_of_subnormal_likelihoods_fall_back_to_the_dense_rows():
    # finish scales rows below 1e-250 by a power of 2 (a dense operation): the operator gives
    # its dense rows there and the result is that of the dense matrix
    edges, L, _ = grid(60)
    bins = np.arange(-110, 170)  # the outermost ~37 sigma from the domain: likelihoods ~1e-292
    C = ConvolutionResponse.from_grid(edges, 0.0, L, bins, GaussianNoise(0.05), "bayes")
    A = np.asarray(C)
    assert 0.0 < A.max(axis=1).min() < 1e-250
    N = np.random.default_rng(2).integers(1, 50, bins.size)
    args = (edges, N, None, int(N.sum()), GaussianNoise(0.05), "bayes", 200, 0.01, False)
    rec_c = finish(*args[:2], C, *args[3:], owned=True, row_top=C.max(axis=1))
    rec_d = finish(*args[:2], A, *args[3:], owned=True)
    assert rec_c.n_iter == rec_d.n_iter
    np.testing.assert_allclose(rec_c.probabilities, rec_d.probabilities, rtol=0, atol=1e-12)


def test_the_matrix_is_not_stored():
    # n = 10^5, m = 2,000: the dense matrix would be ~4,000 x 2,000 x 8 B = 64 MB
    noise = GaussianNoise(0.25)
    w = perturb(plateau(100_000, 0), noise, rng=1)
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        rec = reconstruct(w, noise, bounds=(0, 1), n_intervals=2000, keep_history=False)
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    dense_bytes = 8 * 2000 * (2000 + 2 * int(np.ceil(noise.support(1 - 1e-12)[1] * 2000)))
    assert rec.converged
    assert peak < dense_bytes / 20, f"peak {peak / 1e6:.1f} MB (the dense matrix: {dense_bytes / 1e6:.0f} MB)"

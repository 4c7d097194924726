"""The library's loop is Fig. 1 with Eq. 3, written out independently below, bit for bit.

``plain_loop`` is the paper's loop with the update's two guards (an observed bin the estimate
cannot produce; ``N / D`` overflowing) and the paper's test after every iteration. It is
compared with ``reconstruction._iteration.iterate`` on the Fig. 2 cases and on matrices that
exercise the guards; ``_binning.bin_values`` (floor + bincount) is compared with ``np.unique``.
"""
import numpy as np
import pytest

from ppdm_edu import GaussianNoise, UniformNoise, perturb, plateau
from ppdm_edu.reconstruction import chi2_threshold, reconstruct, reconstruct_counts
from ppdm_edu.reconstruction._binning import bin_values
from ppdm_edu.reconstruction._iteration import iterate


def plain_loop(N, A, max_iter, tol):
    """Fig. 1 with Eq. 3 and the paper's test after every iteration."""
    m = A.shape[1]
    n = float(N.sum())
    pr = np.full(m, 1.0 / m)
    threshold = chi2_threshold(m, tol)
    history, statistic, converged, n_iter = [pr], float("nan"), False, 0
    AT = np.ascontiguousarray(A.T)
    for n_iter in range(1, max_iter + 1):  # noqa: B007
        D = A @ pr
        ok = D > 0.0
        with np.errstate(over="ignore"):
            if ok.all():
                ratio, n_eff = N / D, n
            else:
                ratio = np.where(ok, N / np.where(ok, D, 1.0), 0.0)
                n_eff = float(N[ok].sum())
                if n_eff <= 0.0:
                    break
        huge = ratio > 1e290
        if huge.any():
            ratio = np.where(huge, 0.0, ratio)
            share = N[huge, None] * ((A[huge] * pr) / D[huge, None])
            new = (pr * (AT @ ratio) + share.sum(axis=0)) / n_eff
        else:
            new = pr * (AT @ ratio) / n_eff
        total = new.sum()
        if not total > 0.0 or not np.isfinite(total):
            break
        new /= total
        prev = n * pr
        diff = n * new - prev
        pos = prev > 0.0
        with np.errstate(over="ignore"):
            statistic = float(np.sum(diff[pos] ** 2 / prev[pos]))
        pr = new
        history.append(pr)
        if statistic <= threshold:
            converged = True
            break
    return pr, n_iter, converged, np.array(history), statistic


def assert_same(got, ref):
    pr, n_iter, converged, history, statistic, _ = got
    assert (n_iter, converged) == ref[1:3]
    np.testing.assert_array_equal(pr, ref[0])
    np.testing.assert_array_equal(history, ref[3])
    assert statistic == ref[4] or (np.isnan(statistic) and np.isnan(ref[4]))


def _prepared(case, method):
    """(N, A) as reconstruct hands them to the loop: non-empty bins, A scaled to max 1."""
    from ppdm_edu.reconstruction import response_matrix

    edges = np.linspace(0, 1, 21)
    L = 0.05
    k = np.floor((case.w - 0) / L).astype(int)
    bins, N = np.unique(k, return_counts=True)
    A = response_matrix(edges, case.noise, np.append(bins * L, bins[-1] * L + L), method)
    keep = A.sum(axis=1) > 0
    A = A[keep] / A[keep].max()
    return N[keep].astype(float), A


@pytest.mark.parametrize("shape", ["plateau", "triangles"])
@pytest.mark.parametrize("kind", ["gaussian", "uniform"])
@pytest.mark.parametrize("method", ["bayes", "em"])
def test_iterate_stops_where_the_paper_rule_stops_on_fig2(shape, kind, method):
    from ppdm_edu.experiments.as2000_reconstruction import fig2_case

    for seed in range(3):
        case = fig2_case(shape, kind, rng=seed)
        N, A = _prepared(case, method)
        for tol, max_iter in ((0.01, 1000), (1e-4, 1000), (0.0, 150)):
            assert_same(iterate(N, A, max_iter, tol, keep_history=True),
                        plain_loop(N, A, max_iter, tol))
        # and the paper's own case through the public function: iterations as the plain loop
        rec = reconstruct(case.w, case.noise, bounds=(0, 1), width=0.05, method=method)
        assert rec.n_iter == (case.bayes if method == "bayes" else case.em).n_iter


@pytest.mark.parametrize("seed", range(12))
def test_guarded_iterations_match_the_plain_loop(seed):
    # zeros, far-tail (subnormal) rows and intervals no bin can come from: the estimate drops
    # below the safe bound, bins become impossible, N / D overflows
    rng = np.random.default_rng(seed)
    mw, m = rng.integers(2, 40), rng.integers(2, 30)
    A = rng.random((mw, m)) ** 20
    A[rng.random((mw, m)) < 0.4] = 0.0
    A[:, 0] = 0.0  # an interval that no observed bin comes from: its estimate is 0 at once
    A[0] *= 1e-300
    A[0, 1] = 1e-300
    A[1:, 1] = np.maximum(A[1:, 1], 1e-3)  # every row possible
    N = rng.integers(1, 30, mw).astype(float)
    A /= A.max()
    for tol, max_iter in ((0.01, 500), (0.0, 300)):
        assert_same(iterate(N, A, max_iter, tol, keep_history=True),
                    plain_loop(N, A, max_iter, tol))


def test_public_result_equals_the_plain_loop():
    rng = np.random.default_rng(3)
    A = rng.random((30, 12)) ** 6
    N = rng.integers(0, 40, 30).astype(float)
    rec = reconstruct_counts(N, A, max_iter=400, tol=1e-3, keep_history=True)
    keep = N > 0
    ref = plain_loop(N[keep], A[keep] / A[keep].max(), 400, 1e-3)
    assert (rec.n_iter, rec.converged, rec.statistic) == (ref[1], ref[2], ref[4])
    np.testing.assert_array_equal(rec.probabilities, ref[0])
    np.testing.assert_array_equal(rec.history, ref[3])


@pytest.mark.parametrize("n, m, noise", [(1, 20, GaussianNoise(0.25)), (70_001, 20, UniformNoise(0.5)),
                                         (5_000, 300, GaussianNoise(0.01)),
                                         (2_000, 101, GaussianNoise(50.0))])  # sorted fallback
def test_bincount_binning_equals_unique(n, m, noise):
    w = perturb(plateau(n, rng=0), noise, rng=1)
    lo, hi, L = 0.0, 1.0, 1.0 / m
    k_out = int(np.ceil(min(noise.support(1 - 1e-12)[1] / L, 1e9))) + 2
    k = np.floor((np.clip(w, lo - (k_out + 1) * L, hi + (k_out + 1) * L) - lo) / L)
    k = np.clip(k, -k_out, m - 1 + k_out).astype(np.int64)
    bins, code, counts = np.unique(k, return_inverse=True, return_counts=True)
    got_bins, got_counts, got_code = bin_values(w, lo, hi, L, m, k_out, codes=True)
    np.testing.assert_array_equal(got_bins, bins)
    np.testing.assert_array_equal(got_counts, counts)
    np.testing.assert_array_equal(got_code, code.ravel())
    assert bin_values(w, lo, hi, L, m, k_out)[2] is None


def test_bincount_binning_puts_far_values_in_the_end_bins():
    w = perturb(plateau(3_000, rng=0), GaussianNoise(0.25), rng=1)
    w[[0, 7, 99]] = [-1e300, 1e300, -0.0]
    lo, hi, m, k_out = 0.0, 1.0, 20, 7
    L = 1.0 / m
    k = np.floor((np.clip(w, lo - (k_out + 1) * L, hi + (k_out + 1) * L) - lo) / L)
    k = np.clip(k, -k_out, m - 1 + k_out).astype(np.int64)
    bins, code, counts = np.unique(k, return_inverse=True, return_counts=True)
    assert bins[0] == -k_out and bins[-1] == m - 1 + k_out
    got_bins, got_counts, got_code = bin_values(w, lo, hi, L, m, k_out, codes=True)
    np.testing.assert_array_equal(got_bins, bins)
    np.testing.assert_array_equal(got_counts, counts)
    np.testing.assert_array_equal(got_code, code.ravel())


def test_transpose_is_a_copy_when_small_and_a_view_when_large():
    from ppdm_edu.reconstruction._iteration import _COPY_MAX_ENTRIES, _transposed

    for shape in ((700, 401), (129, 2049), (5, 3), (256, 256), (257, 256)):
        A = np.random.default_rng(0).random(shape)
        AT = _transposed(A)
        np.testing.assert_array_equal(AT, A.T)
        if A.size <= _COPY_MAX_ENTRIES:  # the summation order of every reproduction
            assert AT.flags.c_contiguous and not np.shares_memory(AT, A)
        else:  # one matrix in memory, not two
            assert np.shares_memory(AT, A)


def test_one_posterior_and_no_import_cycle_in_the_reconstruction_package():
    import pathlib

    import ppdm_edu.posterior
    import ppdm_edu.reconstruction as rec
    from ppdm_edu._imports import imports_in

    # the record posterior is written once, in ppdm_edu.posterior; reconstruction re-exports it
    assert rec.posterior is ppdm_edu.posterior.posterior
    # every public name of the package resolves under ppdm_edu.reconstruction
    assert all(getattr(rec, name) is not None for name in rec.__all__)
    root = pathlib.Path(rec.__file__).parent
    stems = {path.stem for path in root.glob("*.py")}
    inside = rec.__name__ + "."
    # each module of the package -> the modules of the package it imports (the package's
    # __init__ is never one: no imported name ends in .__init__)
    graph = {path.stem: {name[len(inside):] for name in imports_in(path.read_text(encoding="utf-8"), rec.__name__)
                         if name.startswith(inside)} & stems
             for path in root.glob("*.py")}
    post = imports_in(pathlib.Path(ppdm_edu.posterior.__file__).read_text(encoding="utf-8"), "ppdm_edu")
    assert not any(name == rec.__name__ or name.startswith(inside) for name in post), \
        "posterior must not import reconstruction"
    # topological order exists (no cycle among the private modules)
    done, todo = set(), dict(graph)
    while todo:
        ready = [m for m, deps in todo.items() if deps <= done]
        assert ready, f"import cycle among {sorted(todo)}"
        for m in ready:
            done.add(m)
            del todo[m]


def test_a_bin_the_estimate_cannot_produce_is_left_out_of_eq3():
    # D_0 = 0: bin 0 can only come from interval 0, whose estimate is 0. Eq. 3 then runs on the
    # other bins alone (their counts are the n of the update), as if bin 0 had not been observed
    from ppdm_edu.reconstruction._iteration import bayes_update

    A = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.5], [0.2, 0.6, 0.0], [0.0, 0.3, 1.0]])
    N = np.array([5.0, 3.0, 2.0, 4.0])
    pr = np.array([0.0, 0.25, 0.75])
    got = bayes_update(pr, A, A.T, N, float(N.sum()))
    rest = bayes_update(pr, A[1:], A[1:].T, N[1:], float(N[1:].sum()))
    np.testing.assert_allclose(got, rest, rtol=1e-15, atol=0)
    # Eq. 3 by hand on bins 1..3: Pr'_p = Pr_p / n sum_s N_s A[s, p] / D_s
    D = A[1:] @ pr
    np.testing.assert_allclose(got, pr * (A[1:].T @ (N[1:] / D)) / N[1:].sum(), rtol=1e-15)
    assert got[0] == 0.0 and got.sum() == pytest.approx(1.0)
    # no observed bin can come from the estimate: nothing to update
    assert bayes_update(np.array([0.0, 0.0, 1.0]), A[:1], A[:1].T, N[:1], 5.0) is None

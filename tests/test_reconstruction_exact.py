"""The fast reconstruction loop gives the numbers of the plain loop of Fig. 1, bit for bit.

``reconstruction._iteration.iterate`` tests the paper's stopping rule once per block of
iterations and skips the update's guards while they cannot fire; ``_binning.bin_values`` counts
with floor + bincount instead of ``np.unique``. Here both are compared with the plain
formulations they replace (written out below as the reference): the same iteration counts, the
same estimates, the same statistics, on the Fig. 2 cases and on matrices that exercise the
guards.
"""
import numpy as np
import pytest

from ppdm_edu import GaussianNoise, UniformNoise, perturb, plateau
from ppdm_edu.reconstruction import chi2_threshold, reconstruct, reconstruct_counts
from ppdm_edu.reconstruction._binning import bin_values
from ppdm_edu.reconstruction._iteration import iterate


def plain_loop(N, A, max_iter, tol):
    """Fig. 1 with Eq. 3 and the paper's test after every iteration (the loop before the change)."""
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
def test_block_stopping_stops_where_the_paper_rule_stops_on_fig2(shape, kind, method):
    from ppdm_edu.experiments.as2000_reconstruction import fig2_case

    for seed in range(3):
        case = fig2_case(shape, kind, rng=seed)
        N, A = _prepared(case, method)
        for tol, max_iter in ((0.01, 1000), (1e-4, 1000), (0.0, 150)):
            ref = plain_loop(N, A, max_iter, tol)
            assert_same(iterate(N, A, max_iter, tol, keep_history=True), ref)  # predicted blocks
            for block in (1, 3, 64):
                assert_same(iterate(N, A, max_iter, tol, keep_history=True, block=block), ref)
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
        ref = plain_loop(N, A, max_iter, tol)
        assert_same(iterate(N, A, max_iter, tol, keep_history=True), ref)
        assert_same(iterate(N, A, max_iter, tol, keep_history=True, block=1), ref)


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


@pytest.mark.parametrize("as_intp_view", [True, False])
def test_bincount_binning_far_values_and_both_integer_conversions(monkeypatch, as_intp_view):
    """Far outliers land in the end bins; the bits-of-2**52 conversion (64-bit platforms) and
    numpy's float -> int conversion (32-bit ones, e.g. Pyodide) give the same bins."""
    from ppdm_edu.reconstruction import _binning

    monkeypatch.setattr(_binning, "_VIEW_AS_INTP", as_intp_view and _binning._VIEW_AS_INTP)
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


def _large_case(seed, m=400):
    """(N, A) of a reconstruction whose matrix takes the large-matrix path (fused products)."""
    from ppdm_edu.reconstruction import response_matrix

    noise = GaussianNoise(0.25)
    edges = np.linspace(0, 1, m + 1)
    k = int(np.ceil(1.2 * m))
    w_edges = np.linspace(-k / m, 1 + k / m, m + 2 * k + 1)
    w = perturb(plateau(200_000, rng=seed), noise, rng=seed + 100)
    N = np.histogram(np.clip(w, w_edges[0], w_edges[-1] - 1e-12), w_edges)[0].astype(float)
    A = response_matrix(edges, noise, w_edges)
    keep = N > 0
    return N[keep], np.ascontiguousarray(A[keep] / A[keep].max())


@pytest.fixture
def fused_from_400k(monkeypatch):
    """The fused products for matrices above 2^18 entries (_large_case's), in blocks of 2^17."""
    from ppdm_edu.reconstruction import _iteration

    monkeypatch.setattr(_iteration, "_FUSED_MIN_ENTRIES", 1 << 18)
    monkeypatch.setattr(_iteration, "_FUSED_BLOCK_ENTRIES", 1 << 17)


def test_large_matrix_path_stops_where_its_every_iteration_test_stops(fused_from_400k):
    from ppdm_edu.reconstruction import _iteration

    N, A = _large_case(0)
    assert A.size > _iteration._FUSED_MIN_ENTRIES  # the fused products run, in 3 blocks
    assert A.shape[0] > 2 * (_iteration._FUSED_BLOCK_ENTRIES // A.shape[1])
    for tol, max_iter in ((0.01, 1000), (1e-4, 1000), (0.0, 60)):
        ref = iterate(N, A, max_iter, tol, keep_history=True, block=1)
        for block in (None, 3, 64):
            got = iterate(N, A, max_iter, tol, keep_history=True, block=block)
            assert got[1:3] == ref[1:3] and got[4] == ref[4]
            np.testing.assert_array_equal(got[0], ref[0])
            np.testing.assert_array_equal(got[3], ref[3])


@pytest.mark.parametrize("seed", range(2))
def test_large_matrix_path_agrees_with_the_plain_loop(seed, monkeypatch, fused_from_400k):
    from ppdm_edu.reconstruction import _iteration

    N, A = _large_case(seed)
    assert A.size > _iteration._FUSED_MIN_ENTRIES
    fast = iterate(N, A, 1000, 0.01, keep_history=False)
    long = iterate(N, A, 3000, 0.0, keep_history=False)
    ref = plain_loop(N, A, 1000, 0.01)
    # the same iteration as the plain loop, the same estimate up to the last bits of the sums
    assert (fast[1], fast[2]) == (ref[1], ref[2])
    np.testing.assert_allclose(fast[0], ref[0], rtol=0, atol=1e-12)
    assert abs(fast[4] - ref[4]) <= 1e-9 * ref[4]
    # and with the fused products turned off (transposed view, two mat-vecs)
    monkeypatch.setattr(_iteration, "_FUSED_MIN_ENTRIES", A.size)
    plain = iterate(N, A, 3000, 0.0, keep_history=False)
    assert long[1] == plain[1] == 3000
    np.testing.assert_allclose(long[0], plain[0], rtol=0, atol=1e-12)
    assert abs(long[0].sum() - 1.0) < 1e-12


def test_one_posterior_and_no_import_cycle_in_the_reconstruction_package():
    import ast
    import pathlib

    import ppdm_edu.posterior
    import ppdm_edu.reconstruction as rec

    # the record posterior is written once, in ppdm_edu.posterior; reconstruction re-exports it
    assert rec.posterior is ppdm_edu.posterior.posterior
    # every public name of the package resolves under ppdm_edu.reconstruction
    assert all(getattr(rec, name) is not None for name in rec.__all__)
    root = pathlib.Path(rec.__file__).parent
    graph = {}
    for path in root.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        graph[path.stem] = {node.module for node in ast.walk(tree)
                            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module}
    post = ast.parse(pathlib.Path(ppdm_edu.posterior.__file__).read_text(encoding="utf-8"))
    assert not any("reconstruction" in (node.module or "") for node in ast.walk(post)
                   if isinstance(node, ast.ImportFrom)), "posterior must not import reconstruction"
    # topological order exists (no cycle among the private modules)
    done, todo = set(), dict(graph)
    while todo:
        ready = [m for m, deps in todo.items() if deps - {"__init__"} <= done]
        assert ready, f"import cycle among {sorted(todo)}"
        for m in ready:
            done.add(m)
            del todo[m]


def test_ndarray_dot_with_out_is_the_matmul_gemv():
    # the loop calls A.dot(v, out) where the plain update wrote A @ v: the same numbers
    rng = np.random.default_rng(1)
    for _ in range(60):
        m_w, m = rng.integers(1, 700, size=2)
        A = rng.random((m_w, m)) ** 3
        v = rng.random(m)
        out = np.empty(m_w)
        A.dot(v, out)
        np.testing.assert_array_equal(out, A @ v)


def test_the_interval_edges_are_numpy_linspace_bit_for_bit():
    # reconstruct builds its edges with _grid._linspace (numpy's arithmetic without its argument
    # handling): the same bits as np.linspace, or every estimate would move in its last digits
    from ppdm_edu.reconstruction._grid import _linspace
    rng = np.random.default_rng(3)
    cases = [(0.0, 1.0, 20), (0.0, 1.0, 1), (20.0, 80.0, 100), (-3.5, 7.25, 10_000),
             (0.0, 5e-324, 3), (1e-320, 3e-320, 7), (-1e300, 1e300, 9)]
    for _ in range(3000):
        lo = float(rng.normal() * 10.0 ** rng.integers(-12, 12))
        hi = lo + float(abs(rng.normal()) * 10.0 ** rng.integers(-12, 12))
        if hi > lo:
            cases.append((lo, hi, int(rng.integers(1, 2000))))
    for lo, hi, m in cases:
        assert _linspace(lo, hi, m).tobytes() == np.linspace(lo, hi, m + 1).tobytes(), (lo, hi, m)
    edges = reconstruct(plateau(500, 0), UniformNoise(0.1), bounds=(0.1, 0.9), n_intervals=30).edges
    assert edges.tobytes() == np.linspace(0.1, 0.9, 31).tobytes()

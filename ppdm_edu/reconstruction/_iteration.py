"""The iteration of Fig. 1 with Eq. 3 (Agrawal & Srikant 2000, Sec. 3), and its preparation.

One iteration is two matrix-vector products (``D = A @ Pr`` and ``A.T @ (N / D)``) and a few
length-m operations. At small m (the panels, every node of the Local tree) numpy's per-call
overhead is the cost, not the arithmetic, so the loop below does only what an iteration needs:

* the guards of the general update (a bin the estimate cannot produce, ``N / D`` overflowing)
  cannot fire while every entry of the estimate is above a bound computed once from ``A`` and
  ``N``; that is checked once per block, and from the first estimate below it on, every
  iteration tests ``max(N / D) <= 1e290`` first and one that fails takes the general update
  (:func:`_general_step`, which handles both cases exactly as before);
* the paper's stopping statistic (Sec. 3) is computed for a block of iterations at once from the
  kept estimates, and the loop stops at the *first* iteration of the block that meets the rule:
  the same iteration, the same estimate and the same statistic as testing after every
  iteration (the extra iterations of the block are discarded). The block length is predicted
  from the statistic's geometric decay, so few iterations are wasted;
* every array is written in place (``out=``), with the same operations in the same order as the
  plain update, so the estimates are bit-for-bit those of testing after every iteration
  (``tests/test_reconstruction.py::test_block_stopping_stops_where_the_paper_rule_stops``).
"""
from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from ..validation import check_bool, check_integer, check_size
from ._grid import METHODS, check_method, check_tol
from ._result import Reconstruction
from ._stopping import stop_threshold

DEFAULT_MAX_ITER = 1000
#: The most iterations any reconstruction runs: with ``tol=0`` the loop runs to ``max_iter``,
#: so an unbounded ``max_iter`` could run for hours (one iteration is O(m^2)); the paper's rule
#: stops after tens to hundreds.
MAX_ITER = 100_000
# N / D above this is computed another way (A @ ratio must not overflow either)
_MAX_RATIO = 1e290
# the longest block of iterations between two evaluations of the stopping rule
_MAX_BLOCK = 64
# up to this many intervals a predicted block runs one iteration more (see _next_block): at
# m = 20 an iteration costs ~3 us and a test of the rule ~8; at m = 500 they cost ~56 and ~15
_MARGIN_MAX_M = 256
# the largest matrix whose transpose is copied (see _transposed): 512 kB
_COPY_MAX_ENTRIES = 1 << 16
# entries per block of rows of a large matrix in the fused products (1 MB: stays in cache
# between the block's two mat-vecs)
_FUSED_BLOCK_ENTRIES = 1 << 17
# the smallest matrix whose mat-vecs are fused (16 MB): a smaller one stays in the last-level
# cache between the two mat-vecs anyway, and two plain mat-vecs were as fast or faster there
# (1000 x 1000: 236 us plain, 245-263 fused; 2000 x 2000: 2,991 plain, 2,437-2,489 fused;
# CPU time, one BLAS thread, 2-core AMD EPYC with 32 MB of L3)
_FUSED_MIN_ENTRIES = 1 << 21


def _general_step(N: np.ndarray, A: np.ndarray, AT: np.ndarray, pr: np.ndarray, n: float):
    """One update of Eq. 3 with every guard; the new estimate, or None when the loop must stop."""
    # Eq. 3: the denominators sum_t A[s, t] Pr(X in I_t) are computed once per
    # iteration and re-used for every p (footnote 2: O(m^2) instead of O(m^3)).
    D = A @ pr
    ok = D > 0.0
    with np.errstate(over="ignore"):
        if ok.all():
            ratio = N / D
            n_eff = n
        else:
            # an observed bin that the current estimate cannot produce carries no
            # information about it: leave it out instead of dividing by zero (never NaN)
            ratio = np.where(ok, N / np.where(ok, D, 1.0), 0.0)
            n_eff = float(N[ok].sum())
            if n_eff <= 0.0:
                return None
    huge = ratio > _MAX_RATIO
    if huge.any():
        # a bin whose likelihood under the estimate is tiny (D below ~1e-300, e.g. a far
        # Gaussian tail): N / D overflows to inf. Its share of the counts is computed
        # directly instead, N_s * A[s, t] Pr_t / D_s <= N_s (exact, never inf or NaN).
        ratio = np.where(huge, 0.0, ratio)
        share = N[huge, None] * ((A[huge] * pr) / D[huge, None])
        new = (pr * (AT @ ratio) + share.sum(axis=0)) / n_eff
    else:
        new = pr * (AT @ ratio) / n_eff
    total = new.sum()
    if not total > 0.0 or not np.isfinite(total):  # pragma: no cover - defensive
        return None
    new /= total
    return new


def _transposed(A: np.ndarray) -> np.ndarray:
    """``A.T`` for the second mat-vec ``A.T @ r``: a C-contiguous copy when A is small, else a view.

    A small matrix (up to ``_COPY_MAX_ENTRIES`` entries: every panel, every tree node, every
    reproduction) gets its own C-contiguous transpose, so ``A.T @ r`` sums in the order it always
    did (the reproductions are byte-identical). A large one is not copied: ``A.T.dot`` is BLAS's
    transposed gemv on ``A`` itself, and a second matrix would double the memory and, once the
    two no longer fit the cache, the time of every iteration (the last bits of ``A.T @ r`` then
    differ, ~1e-16 relative).
    """
    if A.size <= _COPY_MAX_ENTRIES and isinstance(A, np.ndarray):
        return np.ascontiguousarray(A.T)
    return A.T  # (a ConvolutionResponse's A.T: its products, never a matrix)


def _fused_products(A: np.ndarray, N: np.ndarray, D: np.ndarray, ratio: np.ndarray,
                    T: np.ndarray) -> Callable[[np.ndarray], None]:
    """Both mat-vecs of one iteration on a large matrix, block of rows by block of rows.

    ``products(pr)`` writes ``D = A @ pr``, ``ratio = N / D`` and ``T = A.T @ ratio``, as the
    plain loop does, but each block of rows of ``A`` is used for its share of ``A @ pr`` and,
    while it is still in cache, for its share of ``A.T @ ratio`` (Eq. 3 needs the whole ``D``
    only row by row: ``ratio_s = N_s / D_s``). A matrix far larger than the cache is then read
    from memory once per iteration instead of twice. The sums of ``A.T @ ratio`` are taken in
    another order (block by block): the last bits differ from the plain loop's (~1e-16
    relative), which is why only matrices above ``_FUSED_MIN_ENTRIES`` (far above
    ``_COPY_MAX_ENTRIES``, the largest whose summation order is kept) take this path.
    """
    m_w, m = A.shape
    rows = max(4, _FUSED_BLOCK_ENTRIES // m)
    blocks = [(A[s:s + rows].dot, A[s:s + rows].T.dot, N[s:s + rows], D[s:s + rows],
               ratio[s:s + rows]) for s in range(0, m_w, rows)]  # m_w / rows views
    first, rest = blocks[0], blocks[1:]
    part = np.empty(m)
    divide, add = np.divide, np.add

    def products(pr: np.ndarray) -> None:
        a_dot, at_dot, Nb, Db, rb = first
        a_dot(pr, Db)
        divide(Nb, Db, rb)
        at_dot(rb, T)
        for a_dot, at_dot, Nb, Db, rb in rest:  # blocks of rows (m_w / rows of them)
            a_dot(pr, Db)
            divide(Nb, Db, rb)
            at_dot(rb, part)
            add(T, part, T)

    return products


def _block_chi2(est: np.ndarray, n: np.ndarray) -> Callable[[int], np.ndarray]:
    """``block_chi2(j)``: Pearson chi^2 between successive count estimates ``n Pr`` of ``est[:j + 1]``.

    Entry ``i`` compares row ``i + 1`` with row ``i``: ``sum_p (N_{i+1}(I_p) - N_i(I_p))^2 /
    N_i(I_p)`` over the intervals with ``N_i(I_p) > 0`` (Sec. 3, "Stopping Criterion"). The
    operations of the loop before issue 31 on the same numbers (``n * est``, the difference of
    successive rows, its square, divided by the earlier row, summed along the row), in arrays
    allocated once instead of five temporaries per block; the caller ignores over/divide/invalid.
    """
    counts, sq = np.empty_like(est), np.empty((est.shape[0] - 1, est.shape[1]))
    multiply, subtract, divide, add, lowest = (np.multiply, np.subtract, np.divide,
                                               np.add.reduce, np.minimum.reduce)

    def block_chi2(j: int) -> np.ndarray:
        c = multiply(n, est[: j + 1], counts[: j + 1])
        prev = c[:-1]
        d = subtract(c[1:], prev, sq[:j])
        multiply(d, d, d)  # (d ** 2 is this product)
        divide(d, prev, d)
        stats = add(d, 1)
        if lowest(prev, None) > 0.0:  # (NaN fails, and is handled below)
            return stats
        for i in np.flatnonzero(~(prev > 0.0).all(axis=1)):  # rare: an interval at exactly 0
            pos = prev[i] > 0.0
            stats[i] = np.sum((c[i + 1] - prev[i])[pos] ** 2 / prev[i][pos])
        return stats

    return block_chi2


def _next_block(stats: list[float], threshold: float, block: int, margin: int = 0) -> int:
    """How many iterations to run before the next test: where the statistic's geometric decay
    over the last block predicts it reaches the threshold, plus ``margin`` (1 .. _MAX_BLOCK).

    The decay slows as the iteration goes on (the fast modes of the estimate settle first), so
    the prediction tends to fall short by an iteration; where an iteration is cheaper than a
    test of the rule (small m), one more iteration is run rather than a block of one more
    (over 72 cases of Fig. 2's shapes, n = 10^3..10^5, m = 10..100: 242 tests of the rule and
    5 iterations past the stop with no margin, 200 and 41 with a margin of 1).
    """
    last = stats[-1]
    if len(stats) >= 2 and 0.0 < last < stats[-2] and threshold > 0.0:
        rate = math.log(last / stats[-2])  # < 0
        steps = math.log(threshold / last) / rate if last > threshold else 1.0
        if math.isfinite(steps):
            return int(min(_MAX_BLOCK, max(1, math.ceil(steps) + margin)))
    return min(_MAX_BLOCK, 2 * block)


def iterate(N: np.ndarray, A: np.ndarray, max_iter: int, tol: float, keep_history: bool,
            block: int | None = None, row_top: float | None = None):
    """Run Fig. 1 / Eq. 3 on observed bin counts ``N`` (m_w,) with response ``A`` (m_w, m).

    Rows of ``A`` must not be all zero and ``N`` must be positive. Returns (pr, n_iter,
    converged, history, statistic, threshold). ``block`` fixes the number of iterations
    between two tests of the stopping rule (``block=1``: after every iteration); the default
    predicts it. Whatever the block, the result is the same. ``row_top``: the smallest row
    maximum of ``A``, if the caller has it.
    """
    m_w, m = A.shape
    n = float(N.sum())
    threshold = stop_threshold(m, tol)
    AT = _transposed(A)
    # The plain update is safe (every D_s > 0 and N_s / D_s <= 1e290) whenever every entry of
    # the estimate is at least `floor_pr`: then D_s >= (smallest row maximum of A) x min(Pr).
    # Checked once per block on the kept estimates; an iteration that was not safe is run again
    # with the guard tested before the update ("careful").
    if row_top is None:
        row_top = float(A.max(axis=1).min())
    # (Python floats: an overflow gives inf, as numpy's would; a row maximum of 0 cannot be)
    row_top = float(row_top)
    floor_pr = (float(N.max()) / (row_top * _MAX_RATIO) * (1.0 + 1e-9) if row_top > 0.0
                else math.inf)
    careful = not math.isfinite(floor_pr)
    fixed = block is not None
    block = 2 if block is None else int(block)
    # rows of `est`: the estimate before the block, then one row per iteration of the block
    est = np.empty((_MAX_BLOCK + 1 if not fixed else block + 1, m))
    rows = [est[0], est[1]]  # views of est's rows, made as the blocks need them
    est[0] = 1.0 / m  # step (1): uniform start
    # the history as blocks of rows (one copy per block, stacked once at the end)
    history = [est[:1].copy()] if keep_history else None
    D, ratio = np.empty(m_w), np.empty(m_w)
    T = np.empty(m)
    divide, multiply, add = np.divide, np.multiply, np.add.reduce
    # ndarray.dot with out= is the same BLAS gemv call as `@` (the same numbers; checked in
    # tests/test_reconstruction_exact.py) at half its call overhead (~0.3 us instead of 0.6)
    a_dot: Callable[[np.ndarray, np.ndarray], np.ndarray]
    dense = isinstance(A, np.ndarray)  # else a ConvolutionResponse (products, no matrix)
    if not dense or A.flags.c_contiguous:
        a_dot = A.dot
    else:
        def a_dot(v: np.ndarray, out: np.ndarray) -> np.ndarray:
            return np.matmul(A, v, out=out)
    at_dot = AT.dot
    fused = (_fused_products(A, N, D, ratio, T)
             if dense and A.size > _FUSED_MIN_ENTRIES and A.flags.c_contiguous else None)
    biggest, lowest, inf = np.maximum.reduce, np.minimum.reduce, math.inf
    n_arr, total_arr = np.array(n), np.empty(())
    sum_into: Callable[..., object] = np.add.reduce  # (array, axis, dtype, out)
    statistic = float("nan")
    block_chi2 = _block_chi2(est, n_arr)
    # one more iteration per predicted block where an iteration costs less than a test of the
    # rule (a few numpy calls on length-m rows; see _next_block)
    margin = 1 if m <= _MARGIN_MAX_M else 0
    done = 0  # iterations completed and accepted
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        while done < max_iter:
            k = min(block, max_iter - done)
            while len(rows) <= k:
                rows.append(est[len(rows)])
            stopped = False  # the update asked to stop (at iteration done + j + 1)
            # the update of Eq. 3, in place, the same operations as _general_step; after the
            # loop j is the number of iterations done in this block
            if careful:
                for j in range(k):  # noqa: B007 (j is used after the loop)
                    pr, new = rows[j], rows[j + 1]
                    a_dot(pr, D)
                    divide(N, D, ratio)
                    if not biggest(ratio) <= _MAX_RATIO:
                        step = _general_step(N, A, AT, pr, n)
                        if step is None:
                            stopped = True
                            break
                        new[:] = step
                        continue
                    at_dot(ratio, T)
                    multiply(pr, T, new)
                    divide(new, n, new)
                    total = add(new)
                    if not 0.0 < total < inf:
                        stopped = True
                        break
                    divide(new, total, new)
                else:
                    j = k
            else:
                # Every estimate is checked after the block, so the loop is only the update: the
                # numbers as above (n and the total as 0-d arrays: the same divisions without a
                # Python float's conversion on every call, ~0.5 us of ~3 at m = 20).
                pairs = zip(rows[:k], rows[1:k + 1])
                if fused is None:
                    for pr, new in pairs:
                        a_dot(pr, D)
                        divide(N, D, ratio)
                        at_dot(ratio, T)
                        multiply(pr, T, new)
                        divide(new, n_arr, new)
                        sum_into(new, None, None, total_arr)
                        divide(new, total_arr, new)
                else:
                    for pr, new in pairs:
                        fused(pr)  # D, ratio and T as above, in one read of a large A
                        multiply(pr, T, new)
                        divide(new, n_arr, new)
                        sum_into(new, None, None, total_arr)
                        divide(new, total_arr, new)
                j = k
                # An estimate that is not finite came from a total of 0 or inf (impossible from
                # safe estimates; defensive): keep the iterations before it and run that one
                # again with the guard, which stops there as the plain loop does. Then: was
                # every estimate used safe? (NaN fails too.) If not, keep the iterations
                # before the first unsafe one and run on with the guard.
                # (two scalar reductions first: est[:k] >= floor_pr fails on NaN, the sum of the
                # last estimate on NaN and inf; row by row only when one fails)
                if not (lowest(est[:k], None) >= floor_pr and add(est[k]) < inf):
                    finite = add(est[1:k + 1], 1) < inf
                    if not finite.all():  # pragma: no cover - defensive
                        j, careful = int(np.argmin(finite)), True
                    safe = est[:j].min(axis=1) >= floor_pr
                    if not safe.all():
                        j, careful = int(np.argmin(safe)), True
            # the paper's test after each iteration of the block, in order: stop at the first
            # (as Python floats: a block's few statistics are cheaper to scan than to test with
            # numpy calls; NaN is never <= threshold, as in the plain loop)
            stats = block_chi2(j).tolist() if j else []
            hit = False
            for i, value in enumerate(stats):  # (at most _MAX_BLOCK statistics)
                if value <= threshold:
                    j, hit = i + 1, True
                    break
            if history is not None:  # i.e. keep_history
                history.append(est[1: j + 1].copy())
            if j:
                statistic = stats[j - 1]
            done += j
            if hit:
                return est[j].copy(), done, True, _stack(history), statistic, threshold
            if stopped:  # reported as the iteration that could not run, as the plain loop did
                return est[j].copy(), done + 1, False, _stack(history), statistic, threshold
            if not fixed:
                block = _next_block(stats, threshold, block, margin) if j else 1
            est[0] = est[j]
    return est[0].copy(), done, False, _stack(history), statistic, threshold


def _stack(history):
    return None if history is None else np.concatenate(history)


def check_run_args(method, max_iter, tol):
    """The checked ``(method, max_iter, tol)`` of a reconstruction."""
    if (type(max_iter) is int and 1 <= max_iter <= MAX_ITER and type(tol) is float
            and 0.0 <= tol < math.inf and method in METHODS):
        return method, max_iter, tol  # the usual call (what the checks below return for it)
    method = check_method(method)
    max_iter = check_integer(max_iter, "max_iter", minimum=1, maximum=MAX_ITER)
    tol = check_tol(tol)
    return method, max_iter, tol


def finish(edges, N, A, n_total, noise, method, max_iter, tol, keep_history,
           owned: bool = False, row_top: np.ndarray | None = None) -> Reconstruction:
    """Prepare ``A`` (drop impossible/empty bins, scale) and run :func:`iterate`.

    ``owned``: ``A`` was built for this call and may be scaled in place (no copy). ``A`` is a
    matrix or a :class:`~._convolution.ConvolutionResponse` (the same rows, never stored).
    ``row_top``: ``A.max(axis=1)`` if the caller has it (every pass over a large A counts).
    """
    keep_history = check_bool(keep_history, "keep_history")
    if row_top is None:
        row_top = A.max(axis=1)
    keep = None  # the rows to keep, when some are dropped
    low = float(row_top.min())  # the smallest row maximum
    if low > 0.0:  # the usual case: every row possible (NaN goes below)
        n_ignored = 0
        if not N.min() > 0:
            keep = N > 0
    else:
        possible = row_top > 0.0  # A >= 0: a row sums to > 0 exactly when its maximum is > 0
        n_ignored = int(N[~possible].sum())
        if n_ignored == n_total:
            raise ValueError(
                "none of the perturbed values can come from the domain "
                f"[{edges[0]}, {edges[-1]}] under {noise!r}; check bounds and the noise model"
            )
        keep = possible & (N > 0)
    if keep is not None and not keep.all():
        idx = np.flatnonzero(keep)
        first, last = int(idx[0]), int(idx[-1]) + 1
        if last - first == idx.size:
            # one run of rows (e.g. counts on a grid with empty tails): a view, not a copy;
            # the scaling below makes the one copy (unless A is ours)
            N, A, row_top = N[first:last], A[first:last], row_top[first:last]
        else:
            N, A, row_top, owned = N[idx], A[idx], row_top[idx], True
        low = float(row_top.min())
    if keep_history:  # the history holds up to max_iter + 1 estimates of m probabilities
        check_size(int(max_iter) + 1, "max_iter with keep_history=True (lower max_iter or pass "
                   "keep_history=False)", per_item=int(A.shape[1]))
    # Eq. 3 is invariant to scaling A by a constant; scaling its largest entry to 1 keeps a
    # matrix of tiny (even subnormal) likelihoods from overflowing N / (A Pr) to inf.
    top = float(row_top.max())
    if top != 1.0:
        if owned:
            A /= top
        else:
            A, owned = A / top, True
    # the smallest row maximum of the scaled A: division by top > 0 is monotone under rounding,
    # so min(row_top / top) is min(row_top) / top, the same number (one division, not a pass)
    row_min = low / top
    # Eq. 3 is invariant to scaling any one row of A too; a row of far-tail likelihoods
    # (subnormal, ~1e-310) loses its digits in A @ Pr, so such rows are scaled by a power of 2
    # (exact: the same answer as for the row scaled to max 1, and no change to ordinary rows).
    if row_min < 1e-250:
        row_top = row_top / top  # = A.max(axis=1) now: division by top > 0 keeps the order
        tiny = row_top < 1e-250
        if not owned or not isinstance(A, np.ndarray):
            A = np.array(A)  # (a ConvolutionResponse becomes its dense rows here: rare)
        shift = -np.frexp(row_top[tiny])[1]
        A[tiny] = np.ldexp(A[tiny], shift[:, None])
        row_top = row_top.copy()
        row_top[tiny] = np.ldexp(row_top[tiny], shift)
        row_min = float(row_top.min())
    pr, n_iter, converged, history, statistic, threshold = iterate(
        N.astype(float), A, max_iter, tol, keep_history, row_top=row_min
    )
    for arr in (edges, pr) + ((history,) if history is not None else ()):
        arr.setflags(write=False)
    counts = n_total * pr
    counts.setflags(write=False)
    return Reconstruction(
        edges=edges, probabilities=pr, counts=counts, n_iter=int(n_iter),
        converged=bool(converged), history=history, method=method, noise=noise,
        n=int(n_total), n_ignored=n_ignored, statistic=statistic, threshold=threshold,
    )

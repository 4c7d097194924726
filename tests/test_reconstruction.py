"""Tests of the reconstruction of the original distribution (Agrawal & Srikant 2000, Sec. 3)."""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ppdm_edu import GaussianNoise, UniformNoise, perturb, plateau, reconstruct, triangles
from ppdm_edu.reconstruction import (
    Reconstruction,
    Reconstructor,
    default_n_intervals,
    interval_distribution,
    make_edges,
    posterior,
    reconstruct_counts,
    response_matrix,
    sample_total_variation,
    total_variation,
)

NOISES = {"gaussian": GaussianNoise(0.25), "uniform": UniformNoise(0.5)}
SHAPES = {"plateau": plateau, "triangles": triangles}


def _data(shape="plateau", noise="gaussian", n=10_000, seed=0):
    x = SHAPES[shape](n, rng=seed)
    return x, perturb(x, NOISES[noise], rng=seed + 1000)


# --- the result object -------------------------------------------------------------------------
def test_result_is_a_distribution_with_history():
    x, w = _data(n=2_000)
    rec = reconstruct(w, NOISES["gaussian"], bounds=(0, 1), n_intervals=20)
    assert isinstance(rec, Reconstruction)
    assert rec.edges.shape == (21,) and rec.probabilities.shape == (20,)
    assert np.all(rec.probabilities >= 0)
    assert rec.probabilities.sum() == pytest.approx(1.0)
    assert rec.counts.sum() == pytest.approx(2_000)
    assert rec.history.shape == (rec.n_iter + 1, 20)
    np.testing.assert_allclose(rec.history[0], np.full(20, 1 / 20))  # uniform start
    np.testing.assert_allclose(rec.history[-1], rec.probabilities)
    np.testing.assert_allclose(rec.midpoints, np.arange(20) * 0.05 + 0.025)
    assert rec.converged and rec.statistic <= rec.threshold
    assert reconstruct(w, NOISES["gaussian"], keep_history=False).history is None


def test_same_input_same_numbers():
    _, w = _data(n=1_000)
    a = reconstruct(w, NOISES["uniform"], bounds=(0, 1), method="em")
    b = reconstruct(w.copy(), NOISES["uniform"], bounds=(0, 1), method="em")
    np.testing.assert_array_equal(a.probabilities, b.probabilities)


def test_default_intervals_follow_the_paper_heuristic():
    assert default_n_intervals(50) == 10
    assert default_n_intervals(3_000) == 30
    assert default_n_intervals(50_000) == 100
    _, w = _data(n=3_000)
    rec = reconstruct(w, NOISES["gaussian"])
    assert rec.n_intervals == 30
    # default bounds: the range of the perturbed values
    assert rec.edges[0] == pytest.approx(w.min()) and rec.edges[-1] == pytest.approx(w.max())


def test_width_gives_the_paper_grid():
    edges = make_edges((0, 1), width=0.05)
    assert edges.size == 21 and edges[-1] == pytest.approx(1.0)


def test_max_iter_and_tol_zero():
    _, w = _data(n=1_000)
    rec = reconstruct(w, NOISES["gaussian"], bounds=(0, 1), tol=0, max_iter=7)
    assert rec.n_iter == 7 and not rec.converged and rec.history.shape[0] == 8


# --- bad input ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(w=[0.1, np.nan]), "NaN"),
        (dict(w=[0.1, np.inf]), "NaN or infinite"),
        (dict(w=[]), "empty"),
        (dict(bounds=(1, 0)), "low < high"),
        (dict(bounds=(0, np.inf)), "finite"),
        (dict(bounds=5), "pair"),
        (dict(width=0), "width must be > 0"),
        (dict(width=-0.1), "width must be > 0"),
        (dict(n_intervals=0), "n_intervals"),
        (dict(n_intervals=2.5), "integer"),
        (dict(n_intervals=10, width=0.1), "not both"),
        (dict(method="newton"), "method"),
        (dict(max_iter=0), "max_iter"),
        (dict(tol=-1.0), "tol"),
        (dict(w=[50.0, 60.0], noise=UniformNoise(0.5), bounds=(0, 1)), "none of the perturbed"),
    ],
)
def test_bad_input_raises_value_error(kwargs, match):
    args = dict(w=[0.1, 0.5, 0.9], noise=NOISES["gaussian"])
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        reconstruct(**args)


def test_noise_must_be_a_noise_model():
    with pytest.raises(TypeError):
        reconstruct([0.1, 0.2], 0.25)


# --- never NaN -----------------------------------------------------------------------------
def test_impossible_values_are_ignored_not_nan():
    # uniform noise +-0.1 on [0, 1]: a value at 3 cannot come from the domain
    w = np.array([0.2, 0.3, 0.35, 3.0])
    for method in ("bayes", "em"):
        rec = reconstruct(w, UniformNoise(0.1), bounds=(0, 1), n_intervals=10, method=method)
        assert np.isfinite(rec.probabilities).all() and np.isfinite(rec.history).all()
        assert rec.n_ignored == 1
        assert rec.probabilities.sum() == pytest.approx(1.0)
        assert rec.probabilities[5:].sum() < 1e-6  # nothing was put near the outlier


def test_bin_impossible_under_current_estimate_is_skipped():
    # Values at both ends with uniform noise narrower than the gap: each observed bin is
    # possible only under intervals the other one empties; still no NaN.
    A = np.array([[1.0, 0.0], [0.0, 1.0]])
    rec = reconstruct_counts([5, 0], A, method="bayes")
    assert np.isfinite(rec.probabilities).all()
    np.testing.assert_allclose(rec.probabilities, [1.0, 0.0])


# --- response matrix, counts API, Reconstructor, posterior ---------------------------------
def test_em_response_matrix_is_exact_for_uniform_noise():
    # a value uniform on [0, 1) plus U[-0.5, 0.5]: lands in [-1, 0) w.p. 1/8, [0, 1) w.p. 3/4
    A = response_matrix([0, 1, 2, 3], UniformNoise(0.5), [-1, 0, 1, 2, 3, 4], method="em")
    np.testing.assert_allclose(A[:, 0], [0.125, 0.75, 0.125, 0, 0], atol=1e-12)
    np.testing.assert_allclose(A.sum(axis=0), 1.0)


def test_em_response_matrix_gaussian_columns_sum_to_one_on_a_wide_grid():
    edges = make_edges((0, 1), n_intervals=10)
    w_edges = np.linspace(-3, 4, 71)
    A = response_matrix(edges, GaussianNoise(0.3), w_edges, method="em")
    np.testing.assert_allclose(A.sum(axis=0), 1.0, atol=1e-9)
    B = response_matrix(edges, GaussianNoise(0.3), w_edges, method="bayes")
    np.testing.assert_allclose(B.sum(axis=0), 1.0, atol=1e-3)  # mid-point rule


def test_reconstructor_matches_reconstruct():
    _, w = _data(n=5_000, noise="uniform")
    for method in ("bayes", "em"):
        rc = Reconstructor(NOISES["uniform"], make_edges((0, 1), n_intervals=20), method=method)
        a = rc(w)
        b = reconstruct(w, NOISES["uniform"], bounds=(0, 1), n_intervals=20, method=method)
        np.testing.assert_allclose(a.probabilities, b.probabilities, atol=1e-9)
        assert a.counts.sum() == pytest.approx(5_000)


def test_reconstructor_checks_its_matrix_once_with_the_same_results_and_errors():
    _, w = _data(n=5_000)
    rc = Reconstructor(NOISES["gaussian"], make_edges((0, 1), n_intervals=20))
    counts = rc.bin_counts(w)
    a = rc.from_counts(counts, keep_history=True)
    b = reconstruct_counts(counts, rc.matrix, edges=rc.edges, noise=rc.noise, keep_history=True)
    np.testing.assert_array_equal(a.probabilities, b.probabilities)
    np.testing.assert_array_equal(a.history, b.history)
    assert (a.n_iter, a.statistic, a.n_ignored) == (b.n_iter, b.statistic, b.n_ignored)
    with pytest.raises(ValueError, match="counts_w must be finite and non-negative"):
        rc.from_counts(-counts)
    with pytest.raises(ValueError, match="matrix must have shape"):
        rc.from_counts(counts[1:])
    with pytest.raises(ValueError, match="counts_w sums to 0"):
        rc.from_counts(0 * counts)
    # a matrix made writable and changed after __init__ is checked again on every call
    rc.matrix.setflags(write=True)
    rc.matrix[3, 4] = np.nan
    with pytest.raises(ValueError, match="matrix must be finite and non-negative"):
        rc.from_counts(counts)
    rc.matrix = np.zeros_like(rc.matrix)
    with pytest.raises(ValueError, match="matrix is all zero"):
        rc.from_counts(counts)


def test_posterior_rows_are_distributions_and_use_the_prior():
    _, w = _data(n=2_000)
    rec = reconstruct(w, NOISES["gaussian"], bounds=(0, 1), n_intervals=20)
    post = rec.posterior(w[:50])
    assert post.shape == (50, 20)
    np.testing.assert_allclose(post.sum(axis=1), 1.0)
    # an impossible value gets the prior
    p = posterior([5.0], [0, 0.5, 1], [0.3, 0.7], UniformNoise(0.1))
    np.testing.assert_allclose(p, [[0.3, 0.7]])


def test_total_variation():
    assert total_variation([0.2, 0.8], [0.2, 0.8]) == 0.0
    assert total_variation([1, 0], [0, 1]) == 1.0
    assert sample_total_variation([0.2, 0.3], [0.2, 0.3], [0, 0.5, 1]) == 0.0
    with pytest.raises(ValueError):
        total_variation([1.0], [0.5, 0.5])


# --- properties (hypothesis) ---------------------------------------------------------------
values = st.lists(st.floats(-10, 10, allow_nan=False), min_size=1, max_size=200)
noises = st.one_of(
    st.floats(0.01, 5).map(GaussianNoise), st.floats(0.01, 5).map(UniformNoise)
)


@pytest.mark.filterwarnings("error::RuntimeWarning")  # no overflow in N / (A Pr) either
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(w=values, noise=noises, m=st.integers(1, 60), method=st.sampled_from(["bayes", "em"]))
def test_output_is_a_distribution_never_nan(w, noise, m, method):
    rec = reconstruct(w, noise, n_intervals=m, method=method, max_iter=200)
    assert np.isfinite(rec.probabilities).all() and np.isfinite(rec.history).all()
    assert (rec.probabilities >= 0).all()
    assert rec.probabilities.sum() == pytest.approx(1.0)
    assert rec.counts.sum() == pytest.approx(len(w))


@pytest.mark.filterwarnings("error::RuntimeWarning")  # no overflow in N / (A Pr) either
@settings(max_examples=40, deadline=None)
@given(w=values, noise=noises, seed=st.integers(0, 2**16), method=st.sampled_from(["bayes", "em"]))
def test_invariant_to_shuffling(w, noise, seed, method):
    w = np.array(w)
    shuffled = np.random.default_rng(seed).permutation(w)
    a = reconstruct(w, noise, n_intervals=15, method=method, max_iter=100)
    b = reconstruct(shuffled, noise, n_intervals=15, method=method, max_iter=100)
    np.testing.assert_array_equal(a.probabilities, b.probabilities)


@settings(max_examples=40, deadline=None)
@given(x=st.lists(st.floats(0, 1), min_size=1, max_size=300), m=st.integers(2, 50))
def test_exact_for_negligible_noise(x, m):
    # Noise far narrower than an interval: the observed values are (almost) the originals and
    # the reconstruction is exactly their histogram on the grid (one Bayes step suffices).
    noise = UniformNoise(1e-9)
    w = perturb(np.array(x), noise, rng=0)
    rec = reconstruct(w, noise, bounds=(-0.5, 1.5), n_intervals=m, method="bayes")
    np.testing.assert_allclose(rec.probabilities, interval_distribution(w, rec.edges), atol=1e-12)


def test_negligible_noise_recovers_the_original_histogram():
    x = plateau(5_000, rng=3)
    for method in ("bayes", "em"):
        noise = GaussianNoise(1e-6)
        rec = reconstruct(perturb(x, noise, rng=1), noise, bounds=(0, 1), width=0.05,
                          method=method)
        assert total_variation(rec.probabilities, interval_distribution(x, rec.edges)) < 1e-3


# --- the quality bar: Fig. 2 -------------------------------------------------------------------
def _fig2_distances(shape, noise_kind, seeds=range(5)):
    """Mean TV distances over 5 seeds: randomized, bayes, em, |bayes - em| (n = 10,000, 0.05)."""
    out = []
    for seed in seeds:
        x, w = _data(shape, noise_kind, seed=seed)
        noise = NOISES[noise_kind]
        truth_edges = make_edges((0, 1), width=0.05)
        truth = interval_distribution(x, truth_edges)
        bayes = reconstruct(w, noise, bounds=(0, 1), width=0.05, method="bayes")
        em = reconstruct(w, noise, bounds=(0, 1), width=0.05, method="em")
        out.append([
            sample_total_variation(x, w, truth_edges),
            total_variation(bayes.probabilities, truth),
            total_variation(em.probabilities, truth),
            total_variation(bayes.probabilities, em.probabilities),
        ])
    return np.mean(out, axis=0)


FIG2_CASES = [
    ("plateau", "gaussian"),
    ("plateau", "uniform"),
    pytest.param(
        "triangles", "gaussian",
        marks=pytest.mark.xfail(
            strict=True,
            reason="with the paper's stopping rule (chi^2 of successive estimates <= 1% of the "
                   "threshold) the iteration stops after ~10 steps: TV 0.23 vs 0.33 randomized "
                   "(ratio 0.69 > 0.5); see test_fig2_triangles_gaussian_with_a_stricter_stop",
        ),
    ),
    ("triangles", "uniform"),
]


@pytest.mark.parametrize("shape, noise_kind", FIG2_CASES)
def test_fig2_reconstruction_at_most_half_the_randomized_distance(shape, noise_kind):
    randomized, bayes, em, _ = _fig2_distances(shape, noise_kind)
    assert bayes <= 0.5 * randomized, (bayes, randomized)
    assert em <= 0.5 * randomized, (em, randomized)


@pytest.mark.parametrize("shape", ["plateau", "triangles"])
@pytest.mark.parametrize("noise_kind", ["gaussian", "uniform"])
def test_fig2_bayes_and_em_agree(shape, noise_kind):
    *_, gap = _fig2_distances(shape, noise_kind)
    assert gap <= 0.02


def test_fig2_triangles_gaussian_with_a_stricter_stop():
    # The shortfall above is the stopping rule, not the estimator: 100 x stricter (tol=1e-4)
    # the same update gets well under half the randomized distance.
    out = []
    for seed in range(5):
        x, w = _data("triangles", "gaussian", seed=seed)
        rec = reconstruct(w, NOISES["gaussian"], bounds=(0, 1), width=0.05, tol=1e-4)
        edges = make_edges((0, 1), width=0.05)
        out.append((sample_total_variation(x, w, edges),
                    total_variation(rec.probabilities, interval_distribution(x, edges))))
    randomized, reconstructed = np.mean(out, axis=0)
    assert reconstructed <= 0.5 * randomized


# --- experiment, plots and panels --------------------------------------------------------------
def test_fig2_case_is_seeded_and_consistent():
    from ppdm_edu.experiments.as2000_reconstruction import fig2_case

    a = fig2_case("plateau", "uniform", n=2_000, rng=4)
    b = fig2_case("plateau", "uniform", n=2_000, rng=4)
    np.testing.assert_array_equal(a.w, b.w)
    assert a.tv_bayes == b.tv_bayes
    assert a.tv_bayes == pytest.approx(total_variation(a.bayes.probabilities, a.truth))
    with pytest.raises(ValueError, match="shape"):
        fig2_case("circle")
    with pytest.raises(ValueError, match="noise"):
        fig2_case("plateau", "laplace")


def test_reproduce_quick_writes_png_csv_and_comparisons(tmp_path):
    import pandas as pd

    from ppdm_edu.experiments import load

    rep = load("as2000-reconstruction").reproduce(mode="quick", out_dir=tmp_path, seed=0)
    names = {p.name for p in rep.files}
    assert {"as2000_fig2.png", "as2000_reconstruction_tv.csv"} <= names
    frame = pd.read_csv(tmp_path / "as2000_reconstruction_tv.csv")
    assert len(frame) == 4 * 5 and frame["tv_bayes"].notna().all()
    claims = [c for c in rep.comparisons if c.item.startswith("claim")]
    assert len(claims) == 4
    assert all(c.verdict in ("reproduced", "not reproduced") for c in claims)
    numbers = [c for c in rep.comparisons if not c.item.startswith("claim")]
    assert all(c.verdict == "no number in the paper" and c.paper is None for c in numbers)
    assert "Fig. 2" in rep.to_markdown()


def test_plots_draw_without_error():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ppdm_edu.plots.reconstruction import (
        animate_reconstruction,
        plot_reconstruction,
        plot_tv_by_iteration,
    )

    x, w = _data(n=1_000)
    rec = reconstruct(w, NOISES["gaussian"], bounds=(0, 1), n_intervals=20)
    ax = plot_reconstruction(rec, x, w)
    assert len(ax.lines) == 3
    plot_tv_by_iteration(rec, interval_distribution(x, rec.edges))
    anim = animate_reconstruction(rec, x, w, frames=[0, 1, 2])
    assert "<script" in anim.to_jshtml()
    plt.close("all")


def test_panels_update_and_show_messages():
    from ppdm_edu.widgets.reconstruction import (
        ReconstructionIterationsPanel,
        ReconstructionPanel,
    )

    panel = ReconstructionPanel(n=2_000)
    for name, value in [("noise", "uniform"), ("n_intervals", 100), ("method", "em"),
                        ("shape", "triangles"), ("privacy", 200), ("n", 500)]:
        panel.controls[name].value = value
        assert panel.error is None, (name, value, panel.error)
        assert np.isfinite(panel.result.rec.probabilities).all()
    assert panel.result.rec.n_intervals == 100 and panel.result.x.size == 500
    assert panel.image.value[:4] == b"\x89PNG"
    panel.controls["privacy"].value = 0
    assert isinstance(panel.error, ValueError) and "privacy" in panel.message.value

    it = ReconstructionIterationsPanel(n=2_000)
    last = it.run.rec.n_iter
    it.controls["iteration"].value = 0
    np.testing.assert_allclose(it.result[1], np.full(20, 1 / 20))
    it.controls["iteration"].value = last
    np.testing.assert_allclose(it.result[1], it.run.rec.probabilities)


def test_iteration_panel_with_a_stricter_stop_runs_longer():
    from ppdm_edu.widgets.reconstruction import ReconstructionIterationsPanel

    default = ReconstructionIterationsPanel(n=3_000)
    strict = ReconstructionIterationsPanel(n=3_000, tol=1e-4)
    assert strict.run.rec.n_iter > default.run.rec.n_iter
    assert strict.controls["iteration"].max == strict.run.rec.n_iter


@pytest.mark.parametrize("method", ["bayes", "em"])
def test_intervals_far_narrower_than_the_noise(method):
    # found by hypothesis: a domain of width 5e-67 made the exact EM formula cancel to 0
    rec = reconstruct([0.0, 5.0552110330585615e-67], GaussianNoise(1.0), n_intervals=1,
                      method=method)
    np.testing.assert_allclose(rec.probabilities, [1.0])
    rc = Reconstructor(GaussianNoise(1.0), np.linspace(0, 1e-9, 4), method=method)
    assert np.isfinite(rc.matrix).all()
    np.testing.assert_allclose(rc.matrix.sum(axis=0), 1.0, atol=1e-6)


# ------------------------------------------------------------------ stop="cross-validation"
@pytest.mark.parametrize("shape, kind", [("plateau", "gaussian"), ("plateau", "uniform"),
                                         ("triangles", "gaussian"), ("triangles", "uniform")])
def test_cross_validated_stop_reaches_045_of_the_randomized_distance_on_every_fig2_case(shape, kind):
    # issue target: 100 % privacy, n = 10,000, 20 intervals, averaged over 20 seeds
    from ppdm_edu.experiments.as2000_reconstruction import FIG2_BOUNDS, fig2_case
    from ppdm_edu.reconstruction import interval_distribution, total_variation

    ratios = []
    for seed in range(20):
        case = fig2_case(shape, kind, rng=seed)
        rec = reconstruct(case.w, case.noise, bounds=FIG2_BOUNDS, width=0.05,
                          stop="cross-validation", rng=seed, keep_history=False)
        assert rec.stop == "cross-validation" and rec.n_iter == int(np.argmax(rec.heldout_loglik))
        ratios.append((total_variation(rec.probabilities, interval_distribution(case.x, rec.edges)),
                       case.tv_randomized))
    tv, tv_randomized = np.mean(ratios, axis=0)
    assert tv <= 0.45 * tv_randomized, (tv, tv_randomized)


def test_cross_validated_stop_works_for_em_and_is_seeded():
    from ppdm_edu.experiments.as2000_reconstruction import FIG2_BOUNDS, fig2_case

    case = fig2_case("triangles", "gaussian", rng=1)
    a = reconstruct(case.w, case.noise, bounds=FIG2_BOUNDS, width=0.05, method="em",
                    stop="cross-validation", rng=3)
    b = reconstruct(case.w, case.noise, bounds=FIG2_BOUNDS, width=0.05, method="em",
                    stop="cross-validation", rng=3)
    assert a.n_iter == b.n_iter and np.array_equal(a.probabilities, b.probabilities)
    assert a.n_iter > 3 * case.bayes.n_iter  # the paper's rule stops far too early here
    assert np.isclose(a.probabilities.sum(), 1.0) and np.all(a.probabilities >= 0)


@pytest.mark.parametrize("kwargs, match", [
    (dict(stop="heldout"), "stop must be one of"),
    (dict(stop="cross-validation", folds=1), "folds must be an integer between 2 and 20"),
    (dict(stop="cross-validation", folds=2.5), "folds must be an integer"),
])
def test_cross_validated_stop_bad_arguments(kwargs, match):
    w = np.linspace(0, 1, 100)
    with pytest.raises(ValueError, match=match):
        reconstruct(w, GaussianNoise(0.1), bounds=(0, 1), **kwargs)


def test_cross_validated_stop_says_converged_only_when_the_heldout_score_has_peaked():
    # converged=True means the rule was met: the held-out score stopped improving (its curve
    # was cut by the patience rule), not that max_iter ran out while the score still rose
    from ppdm_edu.experiments.as2000_reconstruction import FIG2_BOUNDS, fig2_case
    from ppdm_edu.reconstruction import make_edges

    case = fig2_case("triangles", "uniform", rng=0)
    kw = dict(bounds=FIG2_BOUNDS, width=0.05, stop="cross-validation", rng=0)
    cut = reconstruct(case.w, case.noise, max_iter=5, **kw)
    assert cut.heldout_loglik.size == 6 and np.all(np.diff(cut.heldout_loglik) > 0)  # still rising
    assert cut.n_iter == 5 and not cut.converged
    peaked = reconstruct(case.w, case.noise, max_iter=1000, **kw)
    assert peaked.heldout_loglik.size < 1001  # cut by the rule before max_iter
    assert peaked.heldout_loglik.max() > peaked.heldout_loglik[-1] and peaked.converged
    # the same meaning per call of a Reconstructor
    rc = Reconstructor(case.noise, make_edges(FIG2_BOUNDS, width=0.05), max_iter=5,
                       stop="cross-validation", rng=0)
    rec = rc(case.w)
    assert np.all(np.diff(rec.heldout_loglik) > 0) and not rec.converged

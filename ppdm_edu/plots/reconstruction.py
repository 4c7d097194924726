"""Plots for notebook 02: reconstructing the original distribution (AS2000 Sec. 3, Fig. 2)."""
from __future__ import annotations

import numpy as np

from ..reconstruction import Reconstruction

__all__ = [
    "plot_reconstruction",
    "plot_fig2",
    "plot_iteration",
    "animate_reconstruction",
    "plot_tv_by_iteration",
    "plot_error_grid",
    "plot_heldout_loglik",
]

_COLORS = {"original": "#000000", "randomized": "#D55E00", "reconstructed": "#0072B2",
           "em": "#009E73"}


def _new_ax(ax, figsize=(6, 3.8)):
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=figsize)
    return ax


def _density_on_grid(values: np.ndarray, edges: np.ndarray, extend: bool):
    """Histogram density of ``values`` on ``edges`` (extended with the same width to cover them)."""
    width = edges[1] - edges[0]
    if extend:
        lo = min(values.min(), edges[0])
        hi = max(values.max(), edges[-1])
        k_lo = int(np.ceil((edges[0] - lo) / width))
        k_hi = int(np.ceil((hi - edges[-1]) / width))
        edges = np.concatenate([edges[0] - width * np.arange(k_lo, 0, -1), edges,
                                edges[-1] + width * np.arange(1, k_hi + 1)])
    counts, _ = np.histogram(values, edges)
    return 0.5 * (edges[:-1] + edges[1:]), counts / (values.size * np.diff(edges))


def plot_reconstruction(rec: Reconstruction, x=None, w=None, ax=None, em: Reconstruction = None,
                        title: str | None = None, legend: bool = True, probabilities=None):
    """Fig. 2 style: densities of the original, randomized and reconstructed values.

    Parameters
    ----------
    rec : Reconstruction
    x, w : array-like, optional
        Original and perturbed values (drawn when given; the randomized line is counted on the
        same grid extended to cover ``w``).
    em : Reconstruction, optional
        A second reconstruction (e.g. EM) drawn dashed.
    probabilities : array-like, optional
        Draw these interval probabilities instead of ``rec.probabilities`` (animation frames).
    """
    ax = _new_ax(ax)
    edges = rec.edges
    if x is not None:
        mid, dens = _density_on_grid(np.asarray(x, float), edges, extend=False)
        ax.plot(mid, dens, color=_COLORS["original"], lw=1.8, label="Original")
    if w is not None:
        mid, dens = _density_on_grid(np.asarray(w, float), edges, extend=True)
        ax.plot(mid, dens, color=_COLORS["randomized"], lw=1.5, ls="-.", label="Randomized")
    pr = rec.probabilities if probabilities is None else np.asarray(probabilities)
    label = "Reconstructed" + (" (Bayes)" if em is not None else "")
    ax.plot(rec.midpoints, pr / rec.widths, color=_COLORS["reconstructed"], lw=2, marker="o",
            ms=3, label=label)
    if em is not None:
        ax.plot(em.midpoints, em.density, color=_COLORS["em"], lw=1.5, ls="--",
                label="Reconstructed (EM)")
    ax.set_xlabel("attribute value")
    ax.set_ylabel("density")
    if title:
        ax.set_title(title)
    if legend:
        ax.legend(fontsize="small", loc="upper right")
    return ax


def plot_fig2(cases, axes=None):
    """The four panels of Fig. 2 from :func:`~ppdm_edu.experiments.as2000_reconstruction.fig2_case` results."""
    if axes is None:
        import matplotlib.pyplot as plt

        _, axes = plt.subplots(2, 2, figsize=(10, 7), layout="constrained")
        axes = np.asarray(axes).T.ravel()
    for ax, case in zip(axes, cases):
        noise = case.noise
        noise_text = (f"Gaussian σ = {noise.scale:g}" if noise.kind == "gaussian"
                      else f"uniform ±{noise.scale:g}")
        plot_reconstruction(case.bayes, case.x, case.w, ax=ax, em=case.em,
                            title=f"{case.shape}, {noise_text}", legend=False)
        ax.text(0.02, 0.95, f"TV rand. {case.tv_randomized:.2f}\nTV rec. {case.tv_bayes:.2f}",
                transform=ax.transAxes, va="top", fontsize="small")
    # one legend for the four panels, below them, so that it covers no curve
    fig = axes[0].figure
    handles, labels = axes[0].get_legend_handles_labels()
    from matplotlib.layout_engine import ConstrainedLayoutEngine

    if isinstance(fig.get_layout_engine(), ConstrainedLayoutEngine):  # "outside" needs it
        fig.legend(handles, labels, loc="outside lower center", ncols=len(labels), fontsize="small")
    else:
        axes[0].legend(handles, labels, fontsize="x-small", loc="upper right")
    return axes


def plot_iteration(rec: Reconstruction, iteration: int, x=None, w=None, ax=None, truth=None):
    """The estimate after ``iteration`` steps (row of ``rec.history``)."""
    if rec.history is None:
        raise ValueError("this reconstruction kept no history: use reconstruct(..., keep_history=True)")
    j = int(np.clip(iteration, 0, rec.history.shape[0] - 1))
    ax = plot_reconstruction(rec, x, w, ax=ax, probabilities=rec.history[j], legend=True)
    text = f"iteration {j} of {rec.history.shape[0] - 1}"
    if truth is not None:
        tv = 0.5 * np.abs(rec.history[j] - truth).sum()
        text += f"   TV to original {tv:.3f}"
    ax.set_title(text)
    return ax


def animate_reconstruction(rec: Reconstruction, x=None, w=None, frames=None, figsize=(6, 3.5),
                           interval: int = 300, dpi: int = 60, truth=None):
    """A :class:`matplotlib.animation.FuncAnimation` of the estimate converging.

    ``frames`` are iteration numbers (default: about 15 spread over the history, denser at
    the start). Small ``dpi`` and few frames keep ``to_jshtml()`` light enough for a notebook.
    """
    import matplotlib.pyplot as plt
    from matplotlib.animation import FuncAnimation

    if rec.history is None:
        raise ValueError("this reconstruction kept no history: use reconstruct(..., keep_history=True)")
    last = rec.history.shape[0] - 1
    if frames is None:
        frames = np.unique(np.round(np.geomspace(1, last + 1, 15)).astype(int) - 1)
    frames = [int(f) for f in frames]
    fig, ax = plt.subplots(figsize=figsize, dpi=dpi, layout="constrained")
    plot_iteration(rec, frames[0], x, w, ax=ax, truth=truth)
    line = ax.lines[-1]
    ymax = max(ax.get_ylim()[1], float((rec.history / rec.widths).max()) * 1.05)
    ax.set_ylim(0, ymax)

    def update(j):
        line.set_ydata(rec.history[j] / rec.widths)
        text = f"iteration {j} of {last}"
        if truth is not None:
            text += f"   TV to original {0.5 * np.abs(rec.history[j] - truth).sum():.3f}"
        ax.set_title(text)
        return (line,)

    anim = FuncAnimation(fig, update, frames=frames, interval=interval, blit=False)
    plt.close(fig)
    return anim


def plot_tv_by_iteration(rec: Reconstruction, truth, ax=None, label=None):
    """TV distance to the original after each iteration, with the stopping point marked."""
    ax = _new_ax(ax)
    if rec.history is None:
        raise ValueError("this reconstruction kept no history: use reconstruct(..., keep_history=True)")
    tv = 0.5 * np.abs(rec.history - np.asarray(truth)[None, :]).sum(axis=1)
    ax.plot(np.arange(tv.size), tv, label=label)
    ax.set_xlabel("iteration")
    ax.set_ylabel("TV to the original")
    return ax


def plot_heldout_loglik(rec: Reconstruction, ax=None, paper_n_iter: int | None = None):
    """The held-out log-likelihood against iterations, with the chosen iteration marked.

    Parameters
    ----------
    rec : Reconstruction
        A result of ``reconstruct(..., stop="cross-validation")``.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure when omitted.
    paper_n_iter : int, optional
        Where the paper's rule stopped, marked for comparison.

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on.
    """
    if rec.heldout_loglik is None:
        raise ValueError("this reconstruction has no held-out curve: use reconstruct(..., "
                         "stop='cross-validation')")
    ax = _new_ax(ax)
    ll = rec.heldout_loglik
    ax.plot(np.arange(ll.size), ll, color=_COLORS["reconstructed"])
    ax.axvline(rec.n_iter, color=_COLORS["reconstructed"], ls="--",
               label=f"chosen: {rec.n_iter} iterations")
    if paper_n_iter is not None:
        ax.axvline(paper_n_iter, color="0.5", ls=":", label=f"paper's rule: {paper_n_iter}")
    ax.set_xscale("symlog", linthresh=10)
    ax.set_xlim(0, ll.size - 1)
    ax.set_xlabel("iteration")
    ax.set_ylabel("held-out log-likelihood\nper record (nats)")
    ax.legend(loc="lower right", frameon=False, fontsize="small")
    return ax


def plot_error_grid(frame, ax=None, log_x: bool = True):
    """TV of the reconstruction against n, one line per sigma (from ``error_grid``)."""
    ax = _new_ax(ax)
    for sigma, group in frame.groupby("sigma"):
        ax.plot(group["n"], group["tv_reconstructed"], marker="o", label=f"σ = {sigma:g}")
    if log_x:
        ax.set_xscale("log")
    ax.set_xlabel("number of records n")
    ax.set_ylabel("TV reconstructed vs original")
    ax.legend(title="Gaussian noise", fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1))
    return ax

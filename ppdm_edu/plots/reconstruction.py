"""Plots for notebook 02: reconstructing the original distribution (AS2000 Sec. 3, Fig. 2)."""
from __future__ import annotations

import html as html_lib
import json
import re

import matplotlib as mpl
import numpy as np
from matplotlib.animation import FuncAnimation

from ..reconstruction import Reconstruction
from .alt_text import figure_description

__all__ = [
    "plot_reconstruction",
    "ReconstructionDrawing",
    "plot_fig2",
    "plot_iteration",
    "animate_reconstruction",
    "ReconstructionAnimation",
    "offline_jshtml",
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


def _curves(rec: Reconstruction, x, w, em: Reconstruction | None, probabilities) -> dict:
    """(x, y) of every curve of :func:`plot_reconstruction`, by name, for the values given."""
    curves = {}
    if x is not None:
        curves["original"] = _density_on_grid(np.asarray(x, float), rec.edges, extend=False)
    if w is not None:
        curves["randomized"] = _density_on_grid(np.asarray(w, float), rec.edges, extend=True)
    pr = rec.probabilities if probabilities is None else np.asarray(probabilities)
    curves["reconstructed"] = (rec.midpoints, pr / rec.widths)
    if em is not None:
        curves["em"] = (em.midpoints, em.density)
    return curves


def plot_reconstruction(rec: Reconstruction, x=None, w=None, ax=None, em: Reconstruction | None = None,
                        title: str | None = None, legend: bool = True, probabilities=None):
    """Fig. 2 style: densities of the original, randomized and reconstructed values.

    One panel of Fig. 2 of Agrawal & Srikant (2000): the reconstructed density (one point per
    interval) lies close to the original while the randomized values are spread out. To redraw
    for another reconstruction without a new figure, use :class:`ReconstructionDrawing`.

    Parameters
    ----------
    rec : Reconstruction
        The reconstruction (its intervals are the grid of every curve).
    x, w : array-like, optional
        Original and perturbed values (drawn when given; the randomized line is counted on the
        same grid extended to cover ``w``).
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure and axes when omitted.
    em : Reconstruction, optional
        A second reconstruction (e.g. EM) drawn dashed.
    title : str, optional
        Axes title.
    legend : bool, default True
        Draw the legend (panels and :func:`plot_fig2` put it elsewhere).
    probabilities : array-like, optional
        Draw these interval probabilities instead of ``rec.probabilities`` (animation frames).

    Returns
    -------
    matplotlib.axes.Axes
        The axes with the density curves.
    """
    return ReconstructionDrawing(_new_ax(ax), rec, x, w, em=em, title=title, legend=legend,
                                 probabilities=probabilities).ax


class ReconstructionDrawing:
    """The artists of :func:`plot_reconstruction`, redrawn in place for another reconstruction.

    A panel that moves a control calls :meth:`update` instead of drawing a new figure: the
    axes, their ticks and labels (and the legend) are kept, only the curves get new data and
    the limits are autoscaled from them as for a new drawing. The picture is pixel for pixel
    the one :func:`plot_reconstruction` draws for the same data.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where to draw (a fresh axes).
    rec : Reconstruction
        The reconstruction (its intervals are the grid of every curve).
    x : array-like, optional
        Original values: their density is drawn (solid black).
    w : array-like, optional
        Perturbed values: their density is drawn on the grid extended to cover them.
    em : Reconstruction, optional
        A second reconstruction (e.g. EM) drawn dashed.
    title : str, optional
        Axes title.
    legend : bool, default True
        Draw the legend.
    probabilities : array-like, optional
        Draw these interval probabilities instead of ``rec.probabilities``.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from ppdm_edu.datasets import plateau
    >>> from ppdm_edu.randomization import GaussianNoise
    >>> from ppdm_edu.reconstruction import reconstruct
    >>> noise = GaussianNoise(0.2)
    >>> x = plateau(1_000, rng=0)
    >>> w = x + noise.sample(x.shape, 1)
    >>> rec = reconstruct(w, noise, bounds=(0.0, 1.0), n_intervals=20, keep_history=True)
    >>> drawing = ReconstructionDrawing(plt.subplots()[1], rec, x, w)
    >>> drawing.update(rec, x, w, probabilities=rec.history[0])
    >>> bool(np.allclose(drawing.reconstructed.get_ydata(), 1.0))
    True
    """

    def __init__(self, ax, rec: Reconstruction, x=None, w=None, em: Reconstruction | None = None,
                 title: str | None = None, legend: bool = True, probabilities=None):
        # drawn as a new plot draws (the data limits grow line by line); update() then gives the
        # same lines new data, and the tests compare the two ways pixel for pixel
        self.ax = ax
        self.original = self.randomized = self.em = None
        curves = _curves(rec, x, w, em, probabilities)
        if x is not None:
            self.original, = ax.plot(*curves["original"], color=_COLORS["original"], lw=1.8,
                                     label="Original")
        if w is not None:
            self.randomized, = ax.plot(*curves["randomized"], color=_COLORS["randomized"], lw=1.5,
                                       ls="-.", label="Randomized")
        label = "Reconstructed" + (" (Bayes)" if em is not None else "")
        self.reconstructed, = ax.plot(*curves["reconstructed"], color=_COLORS["reconstructed"],
                                      lw=2, marker="o", ms=3, label=label)
        if em is not None:
            self.em, = ax.plot(*curves["em"], color=_COLORS["em"], lw=1.5, ls="--",
                               label="Reconstructed (EM)")
        ax.set_xlabel("attribute value")
        ax.set_ylabel("density")
        if title:
            ax.set_title(title)
        self.legend = ax.legend(fontsize="small", loc="upper right") if legend else None

    def update(self, rec: Reconstruction, x=None, w=None, em: Reconstruction | None = None,
               probabilities=None, title: str | None = None) -> None:
        """Show another reconstruction (or another iterate of one) on the same axes.

        Parameters
        ----------
        rec : Reconstruction
            The reconstruction (its intervals may differ from the last one's).
        x : array-like, optional
            Original values; given exactly when the drawing was made with them.
        w : array-like, optional
            Perturbed values; given exactly when the drawing was made with them.
        em : Reconstruction, optional
            The second reconstruction; given exactly when the drawing was made with one.
        probabilities : array-like, optional
            Draw these interval probabilities instead of ``rec.probabilities``.
        title : str, optional
            A new axes title (the last one stays when omitted).

        Raises
        ------
        ValueError
            If ``x``, ``w`` or ``em`` is given when the drawing has no such curve, or missing
            when it has one (another set of curves needs a new drawing).
        """
        for name, line, value in (("x", self.original, x), ("w", self.randomized, w),
                                  ("em", self.em, em)):
            if (line is None) != (value is None):
                raise ValueError(f"{name} must be given exactly when the drawing was made with it "
                                 "(another set of curves needs a new ReconstructionDrawing)")
        curves = _curves(rec, x, w, em, probabilities)
        for name, line in (("original", self.original), ("randomized", self.randomized),
                           ("reconstructed", self.reconstructed), ("em", self.em)):
            if line is not None:
                line.set_data(*curves[name])
        if title:
            self.ax.set_title(title)
        # the data limits as a new drawing finds them (from every line, in the order drawn),
        # then the view autoscaled from them (axes whose limits were set keep them)
        self.ax.relim()
        self.ax.autoscale_view()


def plot_fig2(cases, axes=None):
    """The four panels of Fig. 2 from :func:`~ppdm_edu.experiments.as2000_reconstruction.fig2_case` results.

    Fig. 2 of Agrawal & Srikant (2000): plateau and triangles, each with Gaussian and uniform
    noise; every panel shows the original, randomized, reconstructed (Bayes) and EM densities
    and the total-variation distances. One legend serves the four panels.

    Parameters
    ----------
    cases : iterable of Fig2Case
        The four cases, in the order of ``axes``.
    axes : sequence of matplotlib.axes.Axes, optional
        One axes per case; a new 2 x 2 figure (column by column) when omitted.

    Returns
    -------
    sequence of matplotlib.axes.Axes
        The axes drawn on.
    """
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
    """The estimate after ``iteration`` steps (row of ``rec.history``).

    A :func:`plot_reconstruction` of one iterate, titled with its number and, given ``truth``,
    its total-variation distance to the original.

    Parameters
    ----------
    rec : Reconstruction
        A result of ``reconstruct(..., keep_history=True)``.
    iteration : int
        Which iterate (0 is the uniform start); clipped to the history.
    x, w : array-like, optional
        Original and perturbed values, drawn as densities.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure and axes when omitted.
    truth : array-like, optional
        Interval probabilities of the original distribution.

    Returns
    -------
    matplotlib.axes.Axes
        The axes with that iterate, titled with its number.

    Raises
    ------
    ValueError
        If ``rec`` kept no history.
    """
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


# matplotlib's to_jshtml() player draws its nine buttons with Font Awesome icons loaded from a
# CDN (<link href="https://maxcdn...">): offline - a classroom, the course website - the buttons
# are blank. The same buttons with Unicode glyphs that every system font has.
_PLAYER_GLYPHS = {
    "fa fa-minus": "\u2212",                    # slower
    "fa fa-fast-backward": "|\u25c0\u25c0",       # first frame
    "fa fa-step-backward": "|\u25c0",            # previous frame
    "fa fa-play fa-flip-horizontal": "\u25c0",  # play backwards
    "fa fa-pause": "\u2016",                    # pause
    "fa fa-play": "\u25b6",                     # play
    "fa fa-step-forward": "\u25b6|",            # next frame
    "fa fa-fast-forward": "\u25b6\u25b6|",        # last frame
    "fa fa-plus": "+",                          # faster
}
_ICON = re.compile(r'<i class="(fa [^"]+)"></i>')
_CDN_LINK = re.compile(r"<link[^>]*href=\"https?://[^\"]*\"[^>]*>\s*", re.IGNORECASE)


def offline_jshtml(html: str) -> str:
    """matplotlib's ``to_jshtml()`` player without its one network reference.

    Removes the ``<link>`` to the Font Awesome stylesheet on a CDN and replaces the icon
    ``<i class="fa ...">`` of each button by a Unicode glyph; the buttons keep their ``title``
    and ``aria-label``.

    Parameters
    ----------
    html : str
        The output of :meth:`matplotlib.animation.Animation.to_jshtml`.

    Returns
    -------
    str
        The same player, with no ``http(s)://`` reference left in a ``<link>``.

    Examples
    --------
    >>> offline_jshtml('<link rel="stylesheet" href="https://cdn.example/fa.css">'
    ...                '<button title="Play"><i class="fa fa-play"></i></button>')
    '<button title="Play"><span aria-hidden="true">\u25b6</span></button>'
    """
    if not isinstance(html, str):
        raise TypeError(f"html must be a str (the output of to_jshtml()), got {type(html).__name__}")
    html = _CDN_LINK.sub("", html)

    def glyph(match: re.Match) -> str:
        text = _PLAYER_GLYPHS.get(match.group(1))
        return match.group(0) if text is None else f'<span aria-hidden="true">{text}</span>'

    return _ICON.sub(glyph, html)


class ReconstructionAnimation(FuncAnimation):
    """A :class:`~matplotlib.animation.FuncAnimation` whose HTML player needs no network.

    :meth:`to_jshtml` (and so the notebook display) is :func:`offline_jshtml` of matplotlib's.
    Made by :func:`animate_reconstruction`.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure the frames are drawn on.
    func : callable
        ``func(frame, *fargs)`` draws one frame.
    frames : iterable, int or callable, optional
        The frame data passed to ``func`` one at a time.
    init_func : callable, optional
        Draws a clear frame before the first.
    fargs : tuple, optional
        Extra arguments of ``func``.
    save_count : int, optional
        Frames to cache when ``frames`` has no length.
    cache_frame_data : bool
        Cache the frame data.
    **kwargs
        ``interval``, ``repeat``, ... as for :class:`matplotlib.animation.FuncAnimation`.
    """

    def __init__(self, fig, func, frames=None, init_func=None, fargs=None, save_count=None, *,
                 cache_frame_data=True, **kwargs):
        # each frame's text alternative, read off the figure once ``func`` has drawn it (the
        # artists are what is saved); a list only while to_jshtml runs
        self._frame_alts: list[str] | None = None

        def draw_and_describe(*frame_args):
            drawn = func(*frame_args)
            if self._frame_alts is not None:
                self._frame_alts.append(figure_description(fig))
            return drawn

        super().__init__(fig, draw_and_describe, frames=frames, init_func=init_func, fargs=fargs,
                         save_count=save_count, cache_frame_data=cache_frame_data, **kwargs)

    def to_jshtml(self, fps=None, embed_frames=True, default_mode=None):
        """matplotlib's JavaScript player, with no CDN reference (:func:`offline_jshtml`).

        Parameters
        ----------
        fps : float, optional
            Frames per second (default: from the animation's ``interval``).
        embed_frames : bool
            Embed the frames as base64 PNG in the HTML.
        default_mode : {'loop', 'once', 'reflect'}, optional
            What the player does at the last frame.

        Returns
        -------
        str
            The HTML of the player.
        """
        self._frame_alts = []
        try:
            html = super().to_jshtml(fps=fps, embed_frames=embed_frames, default_mode=default_mode)
            alts = self._frame_alts
        finally:
            self._frame_alts = None
        return _with_frame_alts(offline_jshtml(html), alts)


_ANIM_IMG = re.compile(r'<img id="(_anim_img\w+)">')
_ANIM_SLIDER = re.compile(r'(<input id="(_anim_slider\w+)" type="range")')


def _with_frame_alts(html: str, alts: list[str]) -> str:
    """The player with an alt text on its image that follows the frame shown, and a name on its
    frame slider (axe: image-alt, label). The first description drawn before the frames (the
    animation's init draw) is dropped: the last ``len(frames)`` belong to the frames."""
    n = len(re.findall(r"frames\[\d+\] = ", html))
    img, slider = _ANIM_IMG.search(html), _ANIM_SLIDER.search(html)
    if img is None or slider is None:
        return html
    alts = alts[-n:] if n and len(alts) >= n else alts
    first = alts[0] if alts else "Animation of the reconstruction, frame by frame."
    head = "Animation, frame {k} of {n}: "
    frames = [head.format(k=k + 1, n=len(alts)) + a for k, a in enumerate(alts)]
    html = html.replace(img[0], f'<img id="{img[1]}" alt="{html_lib.escape(head.format(k=1, n=len(alts)) + first)}">', 1)
    html = html.replace(slider[1], f'{slider[1]} aria-label="Frame of the animation, 1 to {len(alts)}"', 1)
    alts_js = json.dumps(frames).replace("</", "<\\/")  # no "</script>" inside the script
    script = (
        "<script>(function () {"
        f"var alts = {alts_js};"
        f'var img = document.getElementById("{img[1]}"), slider = document.getElementById("{slider[2]}");'
        "if (!img || !slider) return;"
        "new MutationObserver(function () { var k = parseInt(slider.value, 10);"
        " if (alts[k]) img.alt = alts[k]; }).observe(img, {attributes: true, attributeFilter: ['src']});"
        "})();</script>")
    return html + script


def animate_reconstruction(rec: Reconstruction, x=None, w=None, frames=None, figsize=(6, 3.5),
                           interval: int = 300, dpi: float | None = None, truth=None):
    """An animation of the estimate converging, one frame per chosen iteration.

    Parameters
    ----------
    rec : Reconstruction
        A result of ``reconstruct(..., keep_history=True)``.
    x, w : array-like, optional
        The original and the randomized values, drawn as histograms behind the estimate.
    frames : sequence of int, optional
        Iteration numbers to show (default: about 15 spread over the history, denser at the
        start, where the estimate moves most).
    figsize : (float, float)
        Figure size in inches.
    interval : int
        Milliseconds between frames.
    dpi : float, optional
        Resolution of the frames. Default: the current ``figure.dpi`` but at least
        matplotlib's default (100), so that the title and legend stay readable on a projector;
        15 frames of a 6 x 3.5 inch figure at 100 dpi keep ``to_jshtml()`` well under 2 MB.
    truth : array-like, optional
        Interval probabilities of the original distribution; the title then shows the TV
        distance of each frame to it.

    Returns
    -------
    ReconstructionAnimation
        A ``FuncAnimation`` whose ``to_jshtml()`` player loads nothing from the network.
    """
    import matplotlib.pyplot as plt

    history = rec.history  # one name, known not None inside update() too
    if history is None:
        raise ValueError("this reconstruction kept no history: use reconstruct(..., keep_history=True)")
    if dpi is None:
        dpi = max(float(mpl.rcParams["figure.dpi"]), float(mpl.rcParamsDefault["figure.dpi"]))
    last = history.shape[0] - 1
    if frames is None:
        frames = np.unique(np.round(np.geomspace(1, last + 1, 15)).astype(int) - 1)
    frames = [int(f) for f in frames]
    fig, ax = plt.subplots(figsize=figsize, dpi=dpi, layout="constrained")
    plot_iteration(rec, frames[0], x, w, ax=ax, truth=truth)
    line = ax.lines[-1]
    ymax = max(ax.get_ylim()[1], float((history / rec.widths).max()) * 1.05)
    ax.set_ylim(0, ymax)

    def update(j):
        line.set_ydata(history[j] / rec.widths)
        text = f"iteration {j} of {last}"
        if truth is not None:
            text += f"   TV to original {0.5 * np.abs(history[j] - truth).sum():.3f}"
        ax.set_title(text)
        return (line,)

    anim = ReconstructionAnimation(fig, update, frames=frames, interval=interval, blit=False)
    plt.close(fig)
    return anim


def plot_tv_by_iteration(rec: Reconstruction, truth, ax=None, label=None):
    """TV distance to the original after each iteration.

    Shows how close each iterate of the reconstruction gets to the original distribution, so
    that the paper's stopping point can be judged.

    Parameters
    ----------
    rec : Reconstruction
        A result of ``reconstruct(..., keep_history=True)``.
    truth : array-like
        Interval probabilities of the original distribution on ``rec.edges``.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure and axes when omitted.
    label : str, optional
        Legend label of the curve (to compare several reconstructions on one axes).

    Returns
    -------
    matplotlib.axes.Axes
        The axes with the TV curve.

    Raises
    ------
    ValueError
        If ``rec`` kept no history.
    """
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
    """TV of the reconstruction against n, one line per sigma (from ``error_grid``).

    How the reconstruction error shrinks with more records, and grows with more noise.

    Parameters
    ----------
    frame : pandas.DataFrame
        The output of :func:`ppdm_edu.experiments.as2000_reconstruction.error_grid` (columns
        n, sigma, tv_reconstructed).
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure and axes when omitted.
    log_x : bool, default True
        Logarithmic n axis.

    Returns
    -------
    matplotlib.axes.Axes
        The axes with one TV curve per sigma (legend to the right).
    """
    ax = _new_ax(ax)
    for sigma, group in frame.groupby("sigma"):
        ax.plot(group["n"], group["tv_reconstructed"], marker="o", label=f"σ = {sigma:g}")
    if log_x:
        ax.set_xscale("log")
    ax.set_xlabel("number of records n")
    ax.set_ylabel("TV reconstructed vs original")
    ax.legend(title="Gaussian noise", fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1))
    return ax

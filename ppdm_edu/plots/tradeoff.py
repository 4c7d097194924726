"""Figures of the privacy/accuracy trade-off (notebook 08, ``reproduce tradeoff``).

Both take the table of :mod:`ppdm_edu.experiments.tradeoff` (``tradeoff.csv``: columns
mechanism, estimator, model, task, n, epsilon, delta, unit, audited_epsilon, error, error_sd,
runs, theory) or a frame with the same columns, so that plots never import the experiments.
"""
from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import NullLocator

from ..tradeoff import DELTA_AUDIT_EPSILON
from .alt_text import set_description

__all__ = ["plot_tradeoff", "plot_audit", "plot_mechanism_errors", "MechanismErrorsDrawing",
           "describe_tradeoff", "describe_audit", "MECHANISM_STYLE"]

#: colour (Okabe–Ito, colour-vision safe) and marker per mechanism: no two share both
MECHANISM_STYLE = {
    "warner": ("#0072B2", "o"), "grr": ("#D55E00", "P"), "oue": ("#009E73", "s"),
    "laplace": ("#E69F00", "^"), "gaussian": ("#CC79A7", "v"), "uniform": ("#56B4E9", "D"),
    "central-laplace": ("#000000", "*"), "no": ("#555555", "X"),
}
#: the three privacy levels of uniform noise, each its own marker
_UNIFORM_MARKERS = {"50%": "d", "100%": "D", "200%": "h"}
_ERROR_LABEL = {"share": "absolute error of the share", "histogram": "total variation (k = 10)",
                "classifier": "1 − accuracy (Adult)"}
#: the estimator each mechanism is drawn with when no other is named in its label
_DEFAULT_ESTIMATORS = ("inversion", "naive-bayes")


def _style(mechanism: str):
    color, marker = MECHANISM_STYLE.get(mechanism.split(" ")[0], ("#555555", "x"))
    if mechanism.startswith("uniform"):
        for level, m in _UNIFORM_MARKERS.items():
            if f"({level}" in mechanism:
                marker = m
    return color, marker


def _select(df, task, n):
    sub = df[df["task"] == task]
    if n is None and len(sub):
        n = int(sub["n"].max())
    if n is not None:
        sub = sub[sub["n"] == n]
    return sub, n


def _series_label(mech: str, estimator) -> str:
    if not isinstance(estimator, str) or estimator in _DEFAULT_ESTIMATORS:
        return mech
    if estimator == "ibu-early":
        return f"{mech} + early-stopped IBU (shrinkage)"
    return f"{mech} + {'converged IBU' if estimator == 'ibu' else estimator}"


def _groups(sub):
    est = sub["estimator"] if "estimator" in sub else None
    if est is None:
        for mech, rows in sub.groupby("mechanism", sort=False):
            yield mech, None, rows
        return
    for (mech, e), rows in sub.groupby(["mechanism", "estimator"], sort=False):
        yield mech, e, rows


def _standard_error(rows) -> np.ndarray:
    return (rows["error_sd"] / np.sqrt(rows["runs"])).fillna(0.0).to_numpy(float)


def plot_tradeoff(df, task: str, n=None, ax=None):
    """Error against claimed ε, one line per mechanism and estimator, theory beside (log–log).

    Markers are the mean error over the runs with ± 2 standard errors of that mean; a thin line of
    the same colour is the closed form of the unbiased estimator's error where there is one
    (``theory`` column). Uniform noise, which has no ε, is drawn at its audited ε (hollow). On
    the classifier task the majority-class rate of the test set is a grey line.

    Parameters
    ----------
    df : pandas.DataFrame
        The trade-off table.
    task : {"share", "histogram", "classifier"}
        Which task to draw.
    n : int, optional
        Records (default: the largest n of the task).
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure when omitted.

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on.
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(5, 3.6), layout="constrained")
    sub, n = _select(df, task, n)
    for mech, est, rows in _groups(sub):
        color, marker = _style(mech)
        label = _series_label(mech, est)
        rows = rows.sort_values("epsilon")
        se2 = 2 * _standard_error(rows)
        # the lower bar stops short of 0 (a log axis cannot show it)
        yerr = np.vstack([np.minimum(se2, 0.9 * rows["error"]), se2])
        finite = np.isfinite(rows["epsilon"]).all()
        if task == "classifier" and not finite:
            # two baselines, two line styles: the majority-class rate and the noise-free model
            ax.axhline(float(rows["error"].iloc[0]), color="0.2" if mech.startswith("majority") else color,
                       linewidth=1, linestyle=":" if mech.startswith("majority") else "-.", label=label)
            continue
        if finite:
            ax.errorbar(rows["epsilon"], rows["error"], yerr=yerr, color=color, marker=marker, capsize=2,
                        label=label, linestyle="none" if "theory" in rows and rows["theory"].notna().all()
                        else (":" if est == "ibu-early" else "-"),
                        mfc="white" if est == "ibu-early" else color)
            if "theory" in rows and rows["theory"].notna().all():
                ax.plot(rows["epsilon"], rows["theory"], color=color, linewidth=1,
                        linestyle="--" if mech == "central-laplace" else "-")
        else:
            # no finite claimed ε: placed at its audited ε (hollow marker)
            ax.errorbar(rows["audited_epsilon"], rows["error"], yerr=yerr, color=color, marker=marker,
                        mfc="white", linestyle="none", capsize=2, label=f"{label} (at audited ε)")
    ax.set_xscale("log")
    if task != "classifier":  # errors span decades; the classifier's 1 − accuracy does not
        ax.set_yscale("log")
    unit = sub["unit"].iloc[0] if "unit" in sub and len(sub) else None
    ax.set_xlabel("ε per attribute (claimed)" if unit == "attribute" else "ε (claimed; hollow: audited)")
    ax.set_ylabel(_ERROR_LABEL.get(task, "error"))
    ax.set_title(f"{task}" + (f", n = {n:,}" if n and task != "classifier" else "")
                 + ("; lines: theory" if task != "classifier" else ""))
    ax.legend(fontsize="xx-small")
    return ax


def _audit_rows(df):
    """One row per mechanism, task and claimed ε that was audited."""
    return df.dropna(subset=["audited_epsilon"]).drop_duplicates(["mechanism", "task", "epsilon"])


def _delta_text(delta, lower: bool = False) -> str:
    """A δ as a label says it: 0, 1e-5, 0.948; a lower bound is cut, never rounded up (0.99996
    is "0.999", not "1")."""
    delta = float(delta)
    if delta == 0:
        return "0"
    if delta < 1e-3:
        return f"{delta:.0e}".replace("e-0", "e-")
    return f"{math.floor(delta * 1000) / 1000:g}" if lower else f"{delta:.3g}"


def _audit_groups(df):
    """(mechanism, task, rows, the δ ε was audited at, (audited δ, the ε it is at) or None)."""
    for (mech, task), rows in _audit_rows(df).groupby(["mechanism", "task"], sort=False):
        rows = rows.sort_values("epsilon")
        claimed = rows["delta"].fillna(0.0) if "delta" in rows else np.zeros(len(rows))
        at_delta = float(np.max(claimed))  # one δ per mechanism: its claim (0 when it claims none)
        shown: tuple[float, float | None] | None = None  # ε None: at the claimed ε
        if "audited_delta" in rows:
            finite = np.isfinite(rows["epsilon"]).to_numpy()
            aud = rows["audited_delta"].to_numpy(float)
            if not finite.any() and np.isfinite(aud).any():
                # no finite claim: δ was audited at DELTA_AUDIT_EPSILON, its honest statement
                shown = (float(np.nanmax(aud)), DELTA_AUDIT_EPSILON)
            elif np.nan_to_num(aud[finite]).max(initial=0.0) > 0:
                shown = (float(np.nanmax(aud[finite])), None)   # at the claimed ε: the claim is refuted
        yield mech, task, rows, at_delta, shown


def _audited_delta_text(shown) -> str:
    delta, eps = shown
    return f"audited δ ≥ {_delta_text(delta, lower=True)} at " + ("the claimed ε" if eps is None else f"ε = {eps:g}")


def _audit_label(mech, task, at_delta, shown) -> str:
    label = f"{mech} ({task}), δ = {_delta_text(at_delta)}"
    return label if shown is None else f"{label};\n    {_audited_delta_text(shown)}"


def plot_audit(df, trials=None, ax=None):
    """Audited (ε, δ) against claimed ε; the diagonal is the claim.

    Each point is the 95 % lower bound on ε *at the δ its mechanism claims* (the Gaussian's
    1e-5, 0 for pure-ε mechanisms and for uniform noise, which claims no finite ε); the legend
    gives that δ per mechanism, and, where the audited δ is above 0, the lower bound on δ too
    (uniform noise: at ε = :data:`~ppdm_edu.tradeoff.DELTA_AUDIT_EPSILON`). Each mechanism has
    its own colour and marker (uniform noise: one marker per privacy level), each task its own
    fill (share filled, histogram hollow).

    Parameters
    ----------
    df : pandas.DataFrame
        The trade-off table (columns ``mechanism``, ``task``, ``epsilon``, ``audited_epsilon``;
        ``delta`` and ``audited_delta`` when there are).
    trials : int, optional
        Runs per input of the audit (shown in the title).
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure when omitted.

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on (its alt text set from the data, :func:`describe_audit`).
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(5, 4), layout="constrained")
    sub = _audit_rows(df)
    finite = sub[np.isfinite(sub["epsilon"])]
    top = float(max(finite["epsilon"].max() if len(finite) else 1.0, 1.0)) * 1.3
    for mech, task, rows, at_delta, shown in _audit_groups(df):
        color, marker = _style(mech)
        x = rows["epsilon"].where(np.isfinite(rows["epsilon"]), top)
        ax.scatter(x, rows["audited_epsilon"], color=color, marker=marker,
                   label=_audit_label(mech, task, at_delta, shown),
                   facecolors=color if task == "share" else "white")
    ax.plot([0, top], [0, top], color="0.4", linewidth=1, linestyle=":", label="audited = claimed")
    ax.set_xlabel("claimed ε (right edge: none, ε = ∞)")
    ax.set_ylabel("audited ε at the claimed δ (95 % lower bound)")
    ax.set_title("audit" + (f" at {trials:,} trials per input" if trials else ""))
    # beside the axes: inside, the legend would hide the points at the top (uniform noise)
    ax.legend(fontsize="xx-small", loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0,
              title="ε audited at the claimed δ", title_fontsize="xx-small")
    set_description(ax, describe_audit(df, trials))
    return ax


def describe_audit(df, trials=None) -> str:
    """Alt text for :func:`plot_audit`, generated from the data.

    Parameters
    ----------
    df : pandas.DataFrame
        The trade-off table.
    trials : int, optional
        Runs per input of the audit.

    Returns
    -------
    str
        One sentence per mechanism and task: the δ its ε is audited at, the audited ε at its
        smallest and largest claimed ε, and its audited δ where above 0; then how many points
        lie above the diagonal (a refuted claim).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"mechanism": ["gaussian", "gaussian"], "task": ["share"] * 2,
    ...                    "epsilon": [1.0, 2.0], "delta": [1e-5, 1e-5],
    ...                    "audited_epsilon": [0.62, 1.3], "audited_delta": [0.0, 0.0]})
    >>> describe_audit(df, trials=100_000).split(". ")[1]
    'gaussian (share), at δ = 1e-5: audited ε 0.62 at claimed ε = 1, 1.3 at ε = 2'
    """
    parts = ["Audited ε (95 % lower bound at each mechanism's claimed δ) against claimed ε"
             + (f", {trials:,} runs per input" if trials else "") + "; the diagonal is the claim."]
    for mech, task, rows, at_delta, shown in _audit_groups(df):
        first, last = rows.iloc[0], rows.iloc[-1]
        claim = (f"at claimed {_eps_text(first['epsilon'])}" if math.isfinite(first["epsilon"])
                 else "with no finite claim")
        text = f"{mech} ({task}), at δ = {_delta_text(at_delta)}: audited ε {first['audited_epsilon']:.3g} {claim}"
        if len(rows) > 1:
            text += f", {last['audited_epsilon']:.3g} at {_eps_text(last['epsilon'])}"
        if shown is not None:
            text += f"; {_audited_delta_text(shown)}"
        parts.append(text + ".")
    sub = _audit_rows(df)
    above = sub[np.isfinite(sub["epsilon"]) & (sub["audited_epsilon"] > sub["epsilon"])]
    parts.append("No point lies above the diagonal: no finite claim is refuted." if above.empty else
                 (f"{len(above)} points lie" if len(above) > 1 else "1 point lies") + " above the diagonal (refuted claims): "
                 + ", ".join(f"{r.mechanism} ({r.task}) at ε = {r.epsilon:g}" for r in above.itertuples()) + ".")
    return " ".join(parts)


def _eps_text(e) -> str:
    return "no finite ε" if not math.isfinite(e) else f"ε = {e:g}"


def describe_tradeoff(df, task: str, n=None) -> str:
    """Alt text for :func:`plot_tradeoff`, generated from the data.

    Parameters
    ----------
    df : pandas.DataFrame
        The trade-off table.
    task : {"share", "histogram", "classifier"}
        The task drawn.
    n : int, optional
        Records (default: the largest n of the task).

    Returns
    -------
    str
        One sentence per mechanism and estimator: its error at the smallest and largest ε drawn,
        and the theory there when there is one.
    """
    sub, n = _select(df, task, n)
    parts = [f"Error against ε for the {task} task" + (f" at n = {n:,}" if n and task != "classifier" else "") + "."]
    for mech, est, rows in _groups(sub):
        rows = rows.sort_values("epsilon")
        first, last = rows.iloc[0], rows.iloc[-1]

        def one(r):
            th = r.get("theory", math.nan)
            extra = f" (theory {th:.3g})" if isinstance(th, float) and math.isfinite(th) else ""
            return f"{r['error']:.3g}{extra} at {_eps_text(r['epsilon'])}"
        parts.append(f"{_series_label(mech, est)}: {one(first)}" + ("" if len(rows) == 1 else f", {one(last)}") + ".")
    return " ".join(parts)


def plot_mechanism_errors(rows, ax=None, error_label: str = "error"):
    """One horizontal bar per mechanism: its mean error (± sd) at one ε, log scale.

    To show the same mechanisms at another ε without a new figure, use
    :class:`MechanismErrorsDrawing`.

    Parameters
    ----------
    rows : sequence of dict
        One per mechanism with keys ``mechanism``, ``error``, ``error_sd``, ``epsilon`` (claimed)
        and ``audited_epsilon``.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure when omitted.
    error_label : str, default "error"
        The x-axis label.

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on.
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 3.6), layout="constrained")
    return MechanismErrorsDrawing(ax, rows, error_label).ax


def _bar_values(rows):
    """Bar lengths, error-bar half widths (kept inside the log axis) and their sds."""
    errors = np.array([max(r["error"], 1e-7) for r in rows])
    sds = np.array([r["error_sd"] for r in rows])
    return errors, sds, np.minimum(sds, errors * 0.999)


def _bar_text(r) -> str:
    eps = "∞" if not math.isfinite(r["epsilon"]) else f"{r['epsilon']:.2f}"
    aud = r.get("audited_epsilon")
    aud_text = "" if aud is None or not math.isfinite(aud) else f", audited ≥ {aud:.2f}"
    th = r.get("theory")
    th_text = "" if th is None or not math.isfinite(th) else f", theory {th:.2g}"
    return f"ε = {eps}{aud_text}{th_text}"


def _error_limits(errors) -> tuple[float, float]:
    return max(errors.min() / 3, 1e-7), max(errors.max() * 40, 1e-3)


class MechanismErrorsDrawing:
    """The artists of :func:`plot_mechanism_errors`, redrawn in place at another ε.

    A panel that moves its ε slider calls :meth:`update` instead of drawing a new figure: the
    axes and their (log-scale) ticks are kept, which is most of a redraw. The picture is pixel
    for pixel the one :func:`plot_mechanism_errors` draws for the same rows.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where to draw (a fresh axes).
    rows : sequence of dict
        One per mechanism with keys ``mechanism``, ``error``, ``error_sd``, ``epsilon`` (claimed)
        and ``audited_epsilon``.
    error_label : str, default "error"
        The x-axis label.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> rows = [{"mechanism": "warner", "error": 0.02, "error_sd": 0.01, "epsilon": 1.0,
    ...          "audited_epsilon": 0.9}]
    >>> drawing = MechanismErrorsDrawing(plt.subplots()[1], rows)
    >>> drawing.update([{**rows[0], "error": 0.01, "epsilon": 2.0}])
    True
    >>> drawing.labels[0].get_text(), float(drawing.bars[0].get_width())
    ('ε = 2.00, audited ≥ 0.90', 0.01)
    """

    def __init__(self, ax, rows, error_label: str = "error"):
        self.ax = ax
        rows = list(rows)
        self.mechanisms = [r["mechanism"] for r in rows]
        self.error_label = error_label
        y = np.arange(len(rows))[::-1]
        errors, sds, xerr = _bar_values(rows)
        colors = [_style(r["mechanism"])[0] for r in rows]
        self.bars = ax.barh(y, errors, xerr=xerr, color=colors, capsize=3, height=0.6)
        ax.set_yticks(y, self.mechanisms)
        ax.set_xscale("log")
        # decades only: the unlabelled minor ticks of a log axis are most of a redraw's artists
        ax.xaxis.set_minor_locator(NullLocator())
        self.labels = [ax.text((e + sd) * 1.2, yi, _bar_text(r), va="center", fontsize="small")
                       for yi, r, e, sd in zip(y, rows, errors, np.nan_to_num(sds))]
        self._set_limits(errors)
        ax.set_xlabel(error_label)

    def _set_limits(self, errors) -> None:
        """The x range of the bars (:func:`_error_limits`), widened to the right when a bar's
        label would run past the axes (long labels, projector fonts: "ε = 1.00, audited ≥ 0.26"
        after the widest bar)."""
        lo, hi = _error_limits(errors)
        self.ax.set_xlim(lo, hi)
        axes_px = self.ax.bbox.width
        if not axes_px > 0:
            return
        left, right = math.log10(lo), math.log10(hi)
        # a label of w px starting at log10 position s fits when s + w/A (R - L) <= R, i.e.
        # R >= (s - f L) / (1 - f) with f = w / A; half a font height of room at the end
        pad = 0.5 * self.labels[0].get_fontsize() * self.ax.figure.dpi / 72.0 if self.labels else 0.0
        needed = right
        for label in self.labels:
            f = (label.get_window_extent().width + pad) / axes_px
            if f < 0.9:  # a label as wide as the axes cannot be helped by the range
                needed = max(needed, (math.log10(label.get_position()[0]) - f * left) / (1.0 - f))
        if needed > right:
            self.ax.set_xlim(lo, 10.0 ** needed)

    def update(self, rows, error_label: str | None = None) -> bool:
        """Show new errors and ε of the same mechanisms.

        Parameters
        ----------
        rows : sequence of dict
            As for the constructor.
        error_label : str, optional
            The x-axis label; when given and not the one drawn, nothing is changed.

        Returns
        -------
        bool
            False (and nothing changed) when the mechanisms or the axis label are not those
            drawn: the axes would change, draw anew.
        """
        rows = list(rows)
        if [r["mechanism"] for r in rows] != self.mechanisms or \
                (error_label is not None and error_label != self.error_label):
            return False
        errors, sds, xerr = _bar_values(rows)
        # what Axes.barh / Axes.errorbar compute: the error bar of a bar from 0 to e spans
        # e - xerr .. e + xerr at the bar's centre (caps at both ends)
        low, high = errors - xerr, errors + xerr
        _, caps, (segments,) = self.bars.errorbar.lines
        old = segments.get_segments()
        centres = np.array([seg[0, 1] for seg in old])
        verts = np.ma.empty((len(rows), 2, 2))
        verts[:, 0, 0], verts[:, 0, 1], verts[:, 1, 0], verts[:, 1, 1] = low, centres, high, centres
        segments.set_segments(verts)
        caps[0].set_xdata(low)
        caps[1].set_xdata(high)
        for bar, e in zip(self.bars, errors):
            bar.set_width(e)
        for label, r, e, sd in zip(self.labels, rows, errors, np.nan_to_num(sds)):
            label.set_x((e + sd) * 1.2)
            label.set_text(_bar_text(r))
        self._set_limits(errors)
        return True

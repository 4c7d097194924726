"""Room for legends: how much of an axes' height a legend takes, whatever the style's fonts."""
from __future__ import annotations


def legend_fraction(ax, rows: int) -> float:
    """Fraction of the axes' height that ``rows`` legend rows (font "small") take, plus a gap.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        The axes that will hold the legend (its current height is used).
    rows : int
        Legend rows.

    Returns
    -------
    float
        In [0, 0.6]: set the y limit so that the data stay below ``1 - fraction``.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots(figsize=(6, 3))
    >>> 0 < legend_fraction(ax, 1) < legend_fraction(ax, 3) <= 0.6
    True
    """
    from matplotlib import rcParams
    from matplotlib.font_manager import FontProperties

    fig = ax.figure
    height_px = ax.get_position().height * fig.get_figheight() * fig.dpi
    font_px = FontProperties(size="small").get_size_in_points() * fig.dpi / 72.0
    rows_px = rows * font_px * (1.1 + rcParams["legend.labelspacing"]) + 2.5 * font_px
    # + 0.06: tight_layout / constrained layout may still shrink the axes after this
    return float(min(0.6, rows_px / max(height_px, 1.0) + 0.06))

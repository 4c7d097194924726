"""plot_audit shows the audited (ε, δ): the δ each ε is audited at, and its alt text says the same."""
from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")
import pandas as pd  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from ppdm_edu.plots.alt_text import figure_description  # noqa: E402
from ppdm_edu.plots.tradeoff import describe_audit, plot_audit  # noqa: E402


def _table():
    rows = [("warner", "share", e, 0.0, 0.97 * e, 0.0) for e in (0.5, 1.0)]
    rows += [("gaussian", "share", e, 1e-5, 0.6 * e, 0.0) for e in (0.5, 1.0)]
    rows += [("uniform (100% privacy)", "share", math.inf, math.nan, 9.2, 0.94821)]
    rows += [("broken", "histogram", 1.0, 0.0, 1.4, 0.0)]
    return pd.DataFrame(rows, columns=["mechanism", "task", "epsilon", "delta", "audited_epsilon", "audited_delta"])


def test_legend_gives_the_delta_of_every_mechanism():
    fig = Figure()
    ax = plot_audit(_table(), trials=20_000, ax=fig.add_subplot())
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "warner (share), δ = 0" in labels
    assert "gaussian (share), δ = 1e-5" in labels
    # no finite claim: ε audited at δ = 0, and its audited δ at ε = 1 (a lower bound, cut not rounded)
    assert any(lab.startswith("uniform (100% privacy) (share), δ = 0") and "audited δ ≥ 0.948 at ε = 1" in lab
               for lab in labels), labels
    assert "at the claimed δ" in ax.get_ylabel()


def test_alt_text_is_generated_from_the_data_and_attached():
    df = _table()
    text = describe_audit(df, trials=20_000)
    assert "gaussian (share), at δ = 1e-5: audited ε 0.3 at claimed ε = 0.5, 0.6 at ε = 1" in text
    assert "audited ε 9.2 with no finite claim; audited δ ≥ 0.948 at ε = 1" in text
    assert "1 point lies above the diagonal (refuted claims): broken (histogram) at ε = 1" in text
    fig = Figure()
    plot_audit(df, trials=20_000, ax=fig.add_subplot())
    assert figure_description(fig).startswith(text)
    honest = describe_audit(df[df.mechanism != "broken"])
    assert "No point lies above the diagonal" in honest

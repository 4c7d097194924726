"""What each panel control means, in words: its accessible name (WCAG 2.1 SC 2.5.3,
4.1.2).

A slider labelled "θ" tells a screen-reader user nothing; "θ, probability of a truthful answer"
does. The labels stay short (they share one column); the meaning goes into the
control's tooltip, which ipywidgets shows on hover and gives the label as its title. Keyed by
panel class and control name; a control not listed keeps the tooltip its panel gave it, or gets
its own label.
"""
from __future__ import annotations

# (panel class name, control name) -> what the control means; the label is prefixed to it
MEANINGS: dict[tuple[str, str], str] = {
    ("WarnerSurveyPanel", "theta"): "probability of a truthful answer (the device picks the question about A)",
    ("WarnerSurveyPanel", "n"): "number of respondents in each class survey",
    ("WarnerSurveyPanel", "pi"): "true proportion of the class with the sensitive attribute A",
    ("RRTreePanel", "theta"): "probability that a record is sent unchanged",
    ("RRTreePanel", "disguised_label"): "whether the class label is randomized as well as the attributes",
    ("RandomizationPanel", "attribute"): "which attribute of the data is perturbed",
    ("RandomizationPanel", "kind"): "the kind of additive noise: uniform or Gaussian",
    ("RandomizationPanel", "level"): "privacy level: width of the noise interval at this confidence, in % of the range",
    ("RandomizationPanel", "confidence"): "confidence of the privacy interval",
    ("ReconstructionPanel", "shape"): "shape of the original distribution",
    ("ReconstructionPanel", "noise"): "the kind of additive noise: uniform or Gaussian",
    ("ReconstructionPanel", "privacy"): "privacy level: width of the 95 % confidence interval of the noise, in % of the range",
    ("ReconstructionPanel", "n"): "number of records randomized",
    ("ReconstructionPanel", "n_intervals"): "number of intervals of the reconstructed histogram",
    ("ReconstructionPanel", "method"): "reconstruction algorithm: iterative Bayes or EM",
    ("ReconstructionPanel", "stop"): "when the iteration stops",
    ("ReconstructionIterationsPanel", "iteration"): "which iteration of the reconstruction is shown",
    ("TreesPanel", "function"): "classification function of Table 3",
    ("TreesPanel", "noise"): "the kind of additive noise: uniform or Gaussian",
    ("TreesPanel", "privacy"): "privacy level: width of the 95 % confidence interval of the noise, in % of the range",
    ("TreesPanel", "algorithms"): "which tree algorithms are trained and compared",
    ("PerturbedTreePanel", "threshold"): "threshold of the PPDTC4.5 threshold method",
    ("PerturbedTreePanel", "snr"): "signal-to-noise ratio of the perturbation",
    ("PerturbedTreePanel", "kind"): "the kind of additive noise",
    ("SpectralAttackPanel", "correlation"): "share of each attribute explained by the common factor",
    ("SpectralAttackPanel", "sigma"): "noise standard deviation over the attribute standard deviation",
    ("PosteriorIntervalPanel", "privacy"): "privacy level: Table 1 interval width over the range",
    ("TradeoffPanel", "epsilon"): "the privacy level ε every local mechanism and the central Laplace mechanism are set to (log scale)",
    ("TradeoffPanel", "task"): "what the mechanisms' error is measured on: the share of a yes/no attribute or a 10-bin histogram",
    ("ReconstructionAttackPanel", "n"): "number of people, each with one secret bit",
    ("ReconstructionAttackPanel", "queries"): "how many random subset counts are published: m = n, 2n or 4n",
    ("ReconstructionAttackPanel", "error"): "the error bound E of every published count, in units of the square root of n",
    ("ReconstructionAttackPanel", "decoder"): "how the attacker rebuilds the bits: least squares or the L1 linear program",
}

# (panel class name, slider name) -> the unit a screen reader says after the slider's value
# (aria-valuetext); "" for a pure number (a probability, a ratio, ε). Every slider is listed
# (tests/test_accessibility.py), so a new one cannot be forgotten.
UNITS: dict[tuple[str, str], str] = {
    ("WarnerSurveyPanel", "theta"): "",
    ("WarnerSurveyPanel", "n"): "respondents",
    ("WarnerSurveyPanel", "pi"): "",
    ("RRTreePanel", "theta"): "",
    ("RandomizationPanel", "level"): "% of the range",
    ("RandomizationPanel", "confidence"): "",
    ("ReconstructionPanel", "privacy"): "% of the range",
    ("ReconstructionPanel", "n"): "records",
    ("ReconstructionPanel", "n_intervals"): "intervals",
    ("ReconstructionIterationsPanel", "iteration"): "iterations",
    ("TreesPanel", "privacy"): "% of the range",
    ("PerturbedTreePanel", "threshold"): "",
    ("PerturbedTreePanel", "snr"): "",
    ("SpectralAttackPanel", "correlation"): "",
    ("SpectralAttackPanel", "sigma"): "× the attribute's standard deviation",
    ("PosteriorIntervalPanel", "privacy"): "× the range",
    ("TradeoffPanel", "epsilon"): "",
    ("ReconstructionAttackPanel", "error"): "× √n",
}


def accessible_name(panel: str, name: str, control) -> str:
    """The accessible name of a panel's control: its label, a comma, what it means.

    Parameters
    ----------
    panel : str
        The panel's class name, e.g. ``"WarnerSurveyPanel"``.
    name : str
        The control's name (a keyword of the panel's ``compute``).
    control : ipywidgets.Widget
        The control (its ``description`` and ``tooltip``).

    Returns
    -------
    str
        E.g. ``"θ (truthful question), probability of a truthful answer (...)"``; the label alone,
        or the control's name, when no meaning is known.
    """
    label = (getattr(control, "description", "") or name).strip()
    meaning = MEANINGS.get((panel, name)) or (getattr(control, "tooltip", None) or "").strip()
    if not meaning or meaning == label:
        return label
    return f"{label}, {meaning}"

"""Plotting helpers for the notebooks, one module per topic (matplotlib / seaborn).

Every function draws on an ``ax`` (or a ``Figure``) it is given or creates, and returns it, so a
notebook cell reads like the paper's figure caption and a widget panel can reuse the same drawing.
"""

# The drawing functions live in the topic modules (plots.randomization, plots.trees, ...).
__all__: list[str] = []

"""Data for the course: the bundled UCI Adult files and the papers' synthetic generators.

Nothing here downloads anything: the Adult files ship inside the package.
"""
from .adult import (
    ADULT_CATEGORICAL,
    ADULT_COLUMNS,
    ADULT_CONTINUOUS,
    DataIntegrityError,
    load_adult,
)
from .synthetic import (
    AGRAWAL_ATTRIBUTES,
    AGRAWAL_DOMAINS,
    AGRAWAL_NUMERIC,
    agrawal,
    agrawal_bounds,
    agrawal_noise,
    plateau,
    plateau_pdf,
    triangles,
    triangles_pdf,
)

__all__ = [
    "load_adult", "DataIntegrityError", "ADULT_COLUMNS", "ADULT_CONTINUOUS", "ADULT_CATEGORICAL",
    "agrawal", "AGRAWAL_ATTRIBUTES", "AGRAWAL_NUMERIC", "AGRAWAL_DOMAINS",
    "plateau", "triangles", "plateau_pdf", "triangles_pdf",
    "adult_binary", "correlated_data", "agrawal_bounds", "agrawal_noise", "adult_xy", "make_noises",
]
# Other dataset builders (e.g. adult_binary for Du & Zhan) are added below by their modules.
from .adult_binary import adult_binary  # noqa: E402
from .adult_continuous import adult_xy, make_noises  # noqa: E402
from .correlated import correlated_data  # noqa: E402

"""Random state: one kind of argument in every module (SPEC 7) and independent streams.

Functions take ``rng`` (None, an int seed or a :class:`numpy.random.Generator`), estimators
``random_state``; :func:`check_random_state` turns either into a Generator, :func:`spawn_rngs`
splits one seed into independent streams (data and noise never share one).
"""
from __future__ import annotations

import numbers

import numpy as np

__all__ = ["check_random_state", "spawn_rngs"]


def check_random_state(rng, name: str = "rng") -> np.random.Generator:
    """Return a :class:`numpy.random.Generator` from ``None``, an int seed or a Generator.

    ``None`` gives fresh entropy; an int gives the same stream every time; a Generator is used
    as it is (its state advances).

    Parameters
    ----------
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator
        The seed (a non-negative int or a SeedSequence), a Generator, or None.
    name : str, default "rng"
        The argument's name in messages (estimators call theirs ``random_state``).

    Returns
    -------
    numpy.random.Generator
        A new Generator seeded from ``rng``, or ``rng`` itself if it is one.

    Raises
    ------
    ValueError
        If ``rng`` is a negative int.
    TypeError
        If ``rng`` is a bool or of any other type (e.g. a legacy
        ``numpy.random.RandomState``).

    Examples
    --------
    >>> a, b = check_random_state(0), check_random_state(0)
    >>> bool(a.random() == b.random())
    True
    >>> gen = np.random.default_rng(1)
    >>> check_random_state(gen) is gen
    True
    """
    if isinstance(rng, bool):
        raise TypeError(f"{name} must be None, a non-negative int seed or a numpy.random.Generator, "
                        f"got the bool {rng!r}")
    if rng is None or isinstance(rng, (numbers.Integral, np.random.SeedSequence)):
        if isinstance(rng, numbers.Integral) and int(rng) < 0:
            raise ValueError(f"{name} must be a non-negative integer seed, got {rng}")
        return np.random.default_rng(int(rng) if isinstance(rng, numbers.Integral) else rng)
    if isinstance(rng, np.random.Generator):
        return rng
    raise TypeError(
        f"{name} must be None, a non-negative int seed or a numpy.random.Generator, "
        f"got {type(rng).__name__}"
    )


def spawn_rngs(rng, n: int = 2) -> list[np.random.Generator]:
    """``n`` independent random streams from one seed: data, noise, ... never share a stream.

    A noise drawn from the same seed as the data is a deterministic function of the data (the
    bug that made notebook 01's "perturbed" salaries a stretched copy of the originals). Spawned
    children of one :class:`numpy.random.SeedSequence` are independent by construction, and the
    same seed still gives the same numbers.

    Parameters
    ----------
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator
        The seed (or generator, whose ``spawn`` is used; its state advances).
    n : int, default 2
        How many streams.

    Returns
    -------
    list of numpy.random.Generator
        ``n`` independent generators (e.g. ``data_rng, noise_rng = spawn_rngs(seed)``).

    Raises
    ------
    TypeError, ValueError
        If ``rng`` is not a valid seed or Generator (as :func:`check_random_state`).
    ValueError
        If ``n`` is not an integer from 1 to 1,000,000.

    Examples
    --------
    >>> data_rng, noise_rng = spawn_rngs(0)
    >>> x, r = data_rng.random(5), noise_rng.random(5)
    >>> bool((x != r).all())
    True
    """
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or not 1 <= n <= 1_000_000:
        raise ValueError(f"n must be an integer from 1 to 1,000,000, got {n!r}")
    if isinstance(rng, np.random.Generator):
        return list(rng.spawn(int(n)))
    if isinstance(rng, np.random.SeedSequence):
        seq = rng
    else:
        check_random_state(rng)  # same checks and messages as everywhere (type, negative seed)
        seq = np.random.SeedSequence(None if rng is None else int(rng))
    return [np.random.default_rng(child) for child in seq.spawn(int(n))]

"""Gaussian naive Bayes trained directly on perturbed data (Liu, Kantarcioglu & Thuraisingham, §5).

With ``w = x + r``, ``E[r] = 0`` and ``Var[r] = sigma_R^2`` known, the per-class sample mean of
``w`` estimates the per-class mean of ``x`` and the per-class sample variance ``S^2`` of ``w``
has expectation ``sigma_ij^2 + sigma_R^2`` (Section 5.2). So a Gaussian naive Bayes classifier
(Eq. 8) for the *original* records can be estimated from perturbed ones:

    mu_ij = mean of w over class j,     sigma_ij^2 = S^2 - sigma_R^2   (corrected)

The correction estimates the distribution of the original values: it is the right model for
classifying *original* records. Perturbed test records have the wider spread ``S^2``, so for them
the uncorrected model (``correct_variance=False``) is the right one.

**Variance floor.** ``S^2 - sigma_R^2`` can be tiny or negative when the noise swamps the
attribute (low SNR, small classes). We keep ``sigma_ij^2 >= variance_floor * S^2`` (default 1 %
of the perturbed variance), so every Gaussian stays proper; :attr:`floored_` tells which cells
hit the floor.

Examples
--------
>>> import numpy as np
>>> from ppdm_edu import GaussianNoise, perturb
>>> rng = np.random.default_rng(0)
>>> X = np.r_[rng.normal(0, 1, (500, 1)), rng.normal(3, 1, (500, 1))]
>>> y = np.r_[np.zeros(500), np.ones(500)]
>>> W = perturb(X, GaussianNoise(1.0), rng=1)
>>> nb = PerturbedGaussianNB(noise=GaussianNoise(1.0)).fit(W, y)
>>> bool(0.7 < nb.var_[0, 0] < 1.3), bool(nb.var_perturbed_[0, 0] > 1.5)  # x has variance 1, w 2
(True, True)
"""
from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin

from ._validation import check_bool, check_fit_data, check_predict_data, check_probability, feature_names
from .randomization import check_noise_mapping

__all__ = ["PerturbedGaussianNB"]


class PerturbedGaussianNB(ClassifierMixin, BaseEstimator):
    """Gaussian naive Bayes whose variances are corrected for additive noise (Section 5.2).

    Parameters
    ----------
    noise : None, Noise, or dict
        ``None``: the plain Gaussian naive Bayes. A :class:`~ppdm_edu.UniformNoise` /
        :class:`~ppdm_edu.GaussianNoise` for every attribute, or a dict with one per attribute
        (keys: column index for arrays, column name for DataFrames).
    correct_variance : bool, default True
        Use ``S^2 - sigma_R^2`` (True) or ``S^2`` (False) as the class-conditional variance.
    variance_floor : float in (0, 1], default 0.01
        Corrected variances are kept at least ``variance_floor * S^2``.

    Attributes
    ----------
    classes_ : ndarray, shape (n_classes,)
        The class labels, sorted.
    class_prior_ : ndarray, shape (n_classes,)
        Share of the training records in each class.
    theta_ : ndarray, shape (n_classes, n_features)
        Per-class means of the (perturbed) attributes, estimates of ``mu_ij``.
    var_ : ndarray, shape (n_classes, n_features)
        The variances the model uses: ``S^2 - sigma_R^2`` (floored) when ``correct_variance``
        and ``noise`` is given, else ``S^2``; plus a tiny epsilon, as in scikit-learn.
    var_perturbed_ : ndarray, shape (n_classes, n_features)
        The per-class sample variances ``S^2`` of the training data (denominator n - 1).
    floored_ : ndarray of bool, shape (n_classes, n_features)
        True where the corrected variance hit ``variance_floor * S^2``.
    noise_var_ : ndarray, shape (n_features,)
        ``sigma_R^2`` per attribute (zeros without noise).
    n_features_in_ : int
        Number of attributes seen in ``fit``.
    feature_names_in_ : ndarray of str, shape (n_features,)
        Column names, when fitted on a DataFrame with string column names.

    Examples
    --------
    >>> import numpy as np
    >>> from ppdm_edu import GaussianNoise, perturb
    >>> rng = np.random.default_rng(0)
    >>> X = np.r_[rng.normal(0, 1, (500, 2)), rng.normal(2, 1, (500, 2))]
    >>> y = np.r_[np.zeros(500, int), np.ones(500, int)]
    >>> W = perturb(X, GaussianNoise(1.0), rng=1)
    >>> nb = PerturbedGaussianNB(noise=GaussianNoise(1.0)).fit(W, y)
    >>> nb.predict([[0.0, 0.0], [2.0, 2.0]]).tolist()
    [0, 1]
    >>> p = nb.predict_proba([[0.0, 0.0], [1.0, 1.0]])   # columns: classes_ 0, 1
    >>> bool(p[0, 0] > 0.9), bool(0.2 < p[1, 0] < 0.8)     # sure; half-way: unsure
    (True, True)
    """

    def __init__(self, noise=None, correct_variance=True, variance_floor=0.01):
        self.noise = noise
        self.correct_variance = correct_variance
        self.variance_floor = variance_floor

    def _noise_var(self, d, names):
        if self.noise is None:
            return np.zeros(d)
        by_column = check_noise_mapping(self.noise, d, names)
        return np.array([by_column[j].var for j in range(d)], dtype=float)

    def fit(self, X, y):
        """Estimate priors, means and (corrected) variances from (perturbed) training data.

        Section 5.2 of Liu et al.: ``mu_ij`` is the class mean of ``w`` and ``sigma_ij^2 =
        S^2 - sigma_R^2``.

        Parameters
        ----------
        X : array-like or pandas.DataFrame, shape (n_samples, n_features)
            Training records (perturbed, or original with ``noise=None``), numeric and finite.
        y : array-like, shape (n_samples,)
            Class labels; every class needs at least 2 records.

        Returns
        -------
        PerturbedGaussianNB
            The fitted estimator (``self``).

        Raises
        ------
        ValueError
            If ``variance_floor`` is not in (0, 1], ``noise`` is not None, a Noise or a dict
            with a Noise for every column, a class has fewer than 2 records, or ``X``/``y``
            are invalid.
        """
        floor = check_probability(self.variance_floor, "variance_floor")
        if floor <= 0:
            raise ValueError("variance_floor must be > 0 so that every variance stays positive")
        X, self.classes_, yi = check_fit_data(self, X, y)
        names = feature_names(self)
        k, d = self.classes_.size, X.shape[1]
        counts = np.bincount(yi, minlength=k)
        if (counts < 2).any():
            c = int(np.argmin(counts))
            raise ValueError(f"y: every class needs at least 2 training records to estimate a variance; "
                             f"class {self.classes_[c].tolist()!r} has {counts[c]} sample(s) "
                             f"(n_samples = {counts.sum()})")
        self.noise_var_ = self._noise_var(d, names)
        self.class_prior_ = counts / counts.sum()
        onehot = np.zeros((X.shape[0], k))
        onehot[np.arange(X.shape[0]), yi] = 1.0
        self.theta_ = (onehot.T @ X) / counts[:, None]  # E[w | C_j] = mu_ij (Section 5.2)
        centred = X - self.theta_[yi]  # two passes: no cancellation for large values (fnlwgt)
        self.var_perturbed_ = (onehot.T @ centred**2) / (counts[:, None] - 1)  # S^2 (n - 1 in the denominator)
        if check_bool(self.correct_variance, "correct_variance") and self.noise is not None:
            corrected = self.var_perturbed_ - self.noise_var_  # S^2 - sigma_R^2 (Section 5.2)
            minimum = floor * self.var_perturbed_
            self.floored_ = corrected < minimum
            var = np.maximum(corrected, minimum)
        else:
            self.floored_ = np.zeros((k, d), dtype=bool)
            var = self.var_perturbed_.copy()
        # like scikit-learn: a tiny epsilon keeps constant attributes usable
        # (all attributes constant: an absolute epsilon, else every likelihood would be 0/0 = NaN)
        spread = float(np.max(np.var(X, axis=0)))
        var = var + 1e-9 * (spread if spread > 0 else 1.0)
        self.var_ = var
        return self

    def _joint_log_likelihood(self, X):
        X = check_predict_data(self, X)
        # Eq. 8 in logs: log P(C_j) + sum_i log N(x_i; mu_ij, sigma_ij^2)
        ll = -0.5 * (np.log(2 * np.pi * self.var_)[None] + (X[:, None, :] - self.theta_[None]) ** 2 / self.var_[None])
        return np.log(self.class_prior_)[None] + ll.sum(-1)

    def predict_proba(self, X):
        """Posterior class probabilities.

        Parameters
        ----------
        X : array-like or pandas.DataFrame, shape (n_samples, n_features)
            Records to classify (same columns as in ``fit``).

        Returns
        -------
        ndarray, shape (n_samples, n_classes)
            ``P(C_j | x)`` from Eq. 8, columns in the order of ``classes_``; rows sum to 1.
        """
        jll = self._joint_log_likelihood(X)
        jll -= jll.max(1, keepdims=True)
        p = np.exp(jll)
        return p / p.sum(1, keepdims=True)

    def predict(self, X):
        """The most probable class (Eq. 8).

        Parameters
        ----------
        X : array-like or pandas.DataFrame, shape (n_samples, n_features)
            Records to classify (same columns as in ``fit``).

        Returns
        -------
        ndarray, shape (n_samples,)
            The predicted label of each record (an element of ``classes_``).
        """
        jll = self._joint_log_likelihood(X)
        return self.classes_[np.argmax(jll, axis=1)]


"""Concept questions per notebook: single choice, "choose all that apply",
and a short wrap-up with a numeric answer in a range that does not depend on any seed.

One source of truth for both places a quiz appears:

* in a notebook, ``quiz("03")`` shows each question as radio buttons (one answer), check boxes
  (all that apply) or a number box, with a *Check* button (ipywidgets, imported only when called);
  ``check("03.q1", "b")``, ``check("03.q5", "ab")`` and ``check("03.q6", 0.4)`` check one answer
  as text;
* on the website, with no kernel, ``site/_quiz.py`` renders the same questions at build time as
  HTML (native inputs in a fieldset with a legend, an ``aria-live`` verdict) and a few lines of
  JavaScript. The page holds hashes of the accepted answers, not the answers: a self-check, not a
  test (a reader can hash the few possible answers and compare).

A wrong answer gets the question's hint (never the right letter or number); a right one the
reason. The distractors are of the same length and kind as the right option (see
:func:`quiz_statistics`): picking the longest option is no strategy.
"""
from __future__ import annotations

import math
import numbers
import re
from collections import Counter
from dataclasses import dataclass

import numpy as np

from .checking import CheckResult, foreign_object

__all__ = ["Question", "RangeQuestion", "QUIZZES", "quiz", "quiz_ids", "check_quiz", "is_quiz_id",
           "quiz_statistics"]

LETTERS = "abcdef"


@dataclass(frozen=True)
class Question:
    """One multiple-choice question: one right option, or several ("choose all that apply").

    Attributes
    ----------
    id : str
        "NN.qk": notebook NN, question k.
    prompt : str
        The question (a question with several right options says "Choose all that apply").
    options : tuple of str
        The choices, shown as a), b), ...
    answer : str
        The letter of the right choice, or the letters of all right choices in order ("bd").
    why : str
        Shown with a right answer: the reason.
    hint : str
        Shown with a wrong answer: what to think about (never the answer).
    """

    id: str
    prompt: str
    options: tuple[str, ...]
    answer: str
    why: str
    hint: str

    def __post_init__(self):
        if not re.fullmatch(r"\d\d\.q\d+", self.id):
            raise ValueError(f"a question id is 'NN.qk', got {self.id!r}")
        if not 3 <= len(self.options) <= len(LETTERS):
            raise ValueError(f"question {self.id}: 3 to {len(LETTERS)} options, got {len(self.options)}")
        letters = LETTERS[:len(self.options)]
        if not self.answer or any(a not in letters for a in self.answer) \
                or "".join(sorted(set(self.answer))) != self.answer or len(self.answer) == len(letters):
            raise ValueError(f"question {self.id}: answer must be one of {letters!r}, or several of them in "
                             f"order (not all), got {self.answer!r}")
        if self.multiple != ("all that apply" in self.prompt):
            raise ValueError(f"question {self.id}: a question with several right options says 'Choose all that "
                             f"apply', and only such a question")

    @property
    def letters(self) -> str:
        """The letters of the options ("abcd" for four)."""
        return LETTERS[:len(self.options)]

    @property
    def multiple(self) -> bool:
        """True for a "choose all that apply" question (several right options)."""
        return len(self.answer) > 1


@dataclass(frozen=True)
class RangeQuestion:
    """A wrap-up question with a numeric answer: right when it lies in ``[low, high]`` once rounded
    to ``decimals`` (a closed form: no seed changes it).

    Attributes
    ----------
    id : str
        "NN.qk".
    prompt : str
        The question, with the precision asked for.
    low : float
        The smallest accepted answer, at the stated ``decimals``.
    high : float
        The largest accepted answer (inclusive).
    decimals : int
        The precision asked for; an answer is rounded to it before the comparison.
    why : str
        Shown with a right answer: the computation.
    hint : str
        Shown with a wrong answer (never the number).
    """

    id: str
    prompt: str
    low: float
    high: float
    decimals: int
    why: str
    hint: str

    def __post_init__(self):
        if not re.fullmatch(r"\d\d\.q\d+", self.id):
            raise ValueError(f"a question id is 'NN.qk', got {self.id!r}")
        if not (math.isfinite(self.low) and math.isfinite(self.high) and self.low <= self.high):
            raise ValueError(f"question {self.id}: need finite low <= high, got {self.low!r}, {self.high!r}")
        if not (isinstance(self.decimals, int) and 0 <= self.decimals <= 6):
            raise ValueError(f"question {self.id}: decimals must be a whole number from 0 to 6, got {self.decimals!r}")

    def accepts(self, value: float) -> bool:
        """Whether ``value``, rounded to :attr:`decimals`, lies in the range.

        Parameters
        ----------
        value : float
            The answer.

        Returns
        -------
        bool
            True when ``low <= round(value, decimals) <= high``.
        """
        rounded = round(float(value), self.decimals)
        slack = 10.0 ** -(self.decimals + 9)
        return self.low - slack <= rounded <= self.high + slack

    def accepted_texts(self) -> list[str]:
        """Every accepted answer written with :attr:`decimals` (what the site hashes).

        Returns
        -------
        list of str
            E.g. ``["1.90", "1.91"]`` for the range 1.90-1.91 at 2 decimals.
        """
        step = 10 ** self.decimals
        first, last = round(self.low * step), round(self.high * step)
        return [f"{k / step:.{self.decimals}f}" for k in range(first, last + 1)]


def _q(nb: str, k: int, prompt: str, options, answer: str, why: str, hint: str) -> Question:
    return Question(f"{nb}.q{k}", prompt, tuple(options), answer, why, hint)


def _r(nb: str, k: int, prompt: str, low: float, high: float, decimals: int, why: str, hint: str) -> RangeQuestion:
    return RangeQuestion(f"{nb}.q{k}", prompt, low, high, decimals, why, hint)


QUIZZES: dict[str, tuple[Question | RangeQuestion, ...]] = {
    "00": (
        _q("00", 1, "In Agrawal & Srikant's value distortion, what does the server receive for each record?",
           ["Every value encrypted with a key that only the data owner holds.",
            "A random sample of the original records, drawn by the owner.",
            "Each value plus random noise (w = x + r) from a public distribution.",
            "Counts over groups of records, never a single record itself."],
           "c", "each value is disguised on its own; only the noise's distribution is known to everyone.",
           "re-read 'The learning path', and §1 of notebook 01 ('A record leaves the browser')."),
        _q("00", 2, "Which attribute decides the class of Agrawal's Function 1?",
           ["salary", "loan", "commission", "age"],
           "d", "Group A: younger than 40, or 60 and older.",
           "look at the rule of Function 1 in Table 3."),
        _q("00", 3, "Why do the notebooks pass an integer seed (rng=0) to every generator?",
           ["A seed makes the noise smaller, so results look cleaner.",
            "The same seed gives the same records, so a result can be rerun.",
            "The seed encrypts the records before they leave the machine.",
            "Without a seed the random generators run much more slowly."],
           "b", "a seed fixes the random stream: rerun the cell, get the same numbers.",
           "what stays the same when you rerun a cell with the same seed?"),
        _r("00", 4, "Ages in Agrawal's generator are uniform on [20, 80]. What share of records does Function 1 put "
                    "in Group A (younger than 40, or 60 and older)? Give a fraction to 2 decimals.",
           0.66, 0.67, 2, "P(age < 40) + P(age ≥ 60) = 20/60 + 20/60 = 2/3, whatever the seed.",
           "add the lengths of the two age ranges of Group A and divide by the whole range."),
    ),
    "01": (
        _q("01", 1, "Uniform noise on [−α, α]: how wide is the interval that holds x with 100 % confidence "
                    "(Table 1's interval privacy)?",
           ["α", "2α", "α / 2", "α √3"],
           "b", "w − r ranges over a window of width 2α; at 95 % confidence it is 0.95 × 2α.",
           "how wide is the range of the noise itself?"),
        _q("01", 2, "What is the entropy privacy Π(A) = 2^h(A) of a variable uniform on [0, a]?",
           ["Π = a / 2", "Π = log2 a", "Π = a²", "Π = a"],
           "d", "h = log2 a, so Π = a: Π is the length of an equally uncertain uniform interval.",
           "compute h(A) = log2 a first, then 2^h."),
        _q("01", 3, "The perturbed W is independent of X (the noise drowns everything). What is the privacy "
                    "loss 1 − 2^(−I(X;W))?",
           ["1", "0.5", "0", "it is undefined"],
           "c", "I(X;W) = 0, so nothing is lost.",
           "what is the mutual information of two independent variables?"),
        _q("01", 4, "What does a higher signal-to-noise ratio var(X) / var(R) mean?",
           ["Less privacy and more accurate mining.",
            "More privacy and less accurate mining.",
            "No change in privacy, only in accuracy.",
            "More privacy and more accurate mining."],
           "a", "less noise relative to the data: more is revealed, and more can be learnt.",
           "which way does the privacy loss move as the noise shrinks?"),
        _q("01", 5, "Which of these make the privacy loss 1 − 2^(−I(X;W)) of a record's x larger? Choose all that "
                    "apply.",
           ["Noise with a larger variance, still independent of x.",
            "A smaller noise variance, so a larger SNR.",
            "Rounding each w to a whole number before it is released.",
            "Releasing a second copy of x with its own fresh noise."],
           "bd", "less noise, or a second noisy look at the same x, tells more about x; more noise tells less, and "
                 "processing w (rounding) can never add information about x.",
           "for each change ask: does the server learn more about x than from one w? Rounding only processes w."),
        _r("01", 6, "Uniform noise on [−α, α] with α = 10: how wide is the interval that holds x with 95 % "
                    "confidence (Table 1)? Give a number to 1 decimal.",
           19.0, 19.0, 1, "0.95 × 2α = 19, whatever the seed.",
           "Table 1: the uniform interval width at confidence c is c × 2α."),
    ),
    "02": (
        _q("02", 1, "What does the reconstruction algorithm estimate?",
           ["The noise that was added to each record.",
            "Each original value x_i, one per record.",
            "The class label of each perturbed record.",
            "The distribution f_X of the original values."],
           "d", "the individual values stay hidden; their distribution is recovered.",
           "does the algorithm ever output one value per record?"),
        _q("02", 2, "Why can the distribution be recovered although every value is hidden?",
           ["The noise's density is public, so one can ask which f_X best explains all the w's together.",
            "The noise is small next to the data, so each w is already close to its own original x.",
            "The server keeps the random seeds, so it can subtract each record's own noise again.",
            "The records arrive sorted by x, so their order gives away the shape of f_X."],
           "a", "Bayes' rule with the known noise density moves the estimate towards the distribution that best "
                "explains this perturbed sample (its maximum-likelihood fit), not to f_X itself.",
           "what does the server know about the noise, and what does it see of the records?"),
        _q("02", 3, "Iterative Bayes and EM differ in one place. Which?",
           ["EM needs the original values; Bayes needs only the perturbed ones.",
            "EM uses each interval's exact probability; Bayes the density at mid-points.",
            "Bayes uses a different prior for every record; EM one prior for all.",
            "They do not differ at all: the two names describe the same update."],
           "b", "the response matrices differ by the mid-point approximation only (exercise 02.4 measures it).",
           "compare how the two fill their response matrix."),
        _q("02", 4, "What happens if the iteration runs for a very long time with a tiny tolerance?",
           ["The estimate always gets closer to the true distribution.",
            "It diverges: the estimate's values grow without a bound.",
            "It fits the noise of this one sample more and more closely.",
            "Nothing changes: the update stops after a single step."],
           "c", "the maximum-likelihood fit chases the sample's noise; a held-out stop avoids that.",
           "re-read 'When to stop' in §2."),
        _q("02", 5, "What does the reconstruction need as input? Choose all that apply.",
           ["The perturbed values w_i of the records.",
            "The noise's density (its kind and its size).",
            "The original values x_i of a few records.",
            "The random seed with which the noise was drawn."],
           "ab", "the update uses only the perturbed values and the public noise density: no original value, "
                 "no seed.",
           "look at the update's formula: which quantities appear in it?"),
        _r("02", 6, "Values uniform on [0, 1] get Gaussian noise with σ = 0.25. What is the signal-to-noise ratio "
                    "var(X) / var(R)? Give a number to 2 decimals.",
           1.33, 1.34, 2, "var(X) = 1/12 for U[0, 1] and var(R) = σ² = 1/16: the ratio is 16/12 = 4/3.",
           "the variance of U[0, 1] is 1/12; the noise's variance is σ²."),
    ),
    "03": (
        _q("03", 1, "Warner's device answers truthfully with probability θ. For which θ can the true proportion "
                    "NOT be estimated?",
           ["θ = 0", "θ = 0.5", "θ = 0.75", "θ = 1"],
           "b", "at θ = 0.5 the answer is independent of the truth: the estimate divides by 2θ − 1 = 0.",
           "look at the denominator 2θ − 1 of the estimator."),
        _q("03", 2, "What is ε for Warner's device with probability θ?",
           ["θ / (1 − θ)", "2θ − 1", "log2 (1/θ)", "|ln(θ / (1 − θ))|"],
           "d", "the largest log-ratio of the probabilities of one answer under the two truths.",
           "ε is a natural logarithm of a ratio of two probabilities."),
        _q("03", 3, "A classroom device: toss two coins, answer truthfully unless both show tails (then lie). "
                    "What are θ and ε?",
           ["θ = 0.5, ε = 0", "θ = 0.75, ε = 0.75", "θ = 0.75, ε = ln 3", "θ = 0.25, ε = ln 4"],
           "c", "P(not both tails) = 3/4, and ln(0.75 / 0.25) = ln 3 ≈ 1.10.",
           "P(two tails) = 1/4; then use ε = ln(θ / (1 − θ))."),
        _q("03", 4, "How do θ = 0.2 and θ = 0.8 compare?",
           ["The same ε and the same variance.",
            "0.2 is more private but less precise.",
            "0.8 is more private and more precise.",
            "0.2 cannot be used: it mostly lies."],
           "a", "θ and 1 − θ give the same |ln(θ/(1 − θ))| and the same (2θ − 1)²: a device that mostly lies is "
                "a relabelled truthful one.",
           "put θ and 1 − θ into ε and into the variance."),
        _q("03", 5, "Which statements about Warner's estimate π̂ = (λ̂ − (1 − θ)) / (2θ − 1) are true? Choose all "
                    "that apply.",
           ["It can fall below 0 or above 1 in a small survey.",
            "It is unbiased for every θ other than 0.5.",
            "It needs to know which respondents told the truth.",
            "Its variance is never larger than a direct question's."],
           "ab", "it inverts the expected share exactly (unbiased), but a sample share can land outside "
                 "[1 − θ, θ], and the device's noise adds to the sampling variance.",
           "take the expectation of λ̂, then think of a survey where by chance few say 'yes'."),
        _r("03", 6, "With θ = 0.7, 46 % of the answers are 'yes'. What is Warner's estimate of the true "
                    "proportion? Give a fraction to 2 decimals.",
           0.40, 0.40, 2, "(0.46 − 0.3) / (2 × 0.7 − 1) = 0.16 / 0.4 = 0.40, whatever the seed.",
           "π̂ = (λ̂ − (1 − θ)) / (2θ − 1)."),
    ),
    "04": (
        _q("04", 1, "What is the Gini index of a node with 50 % of each of two classes?",
           ["0", "0.25", "1", "0.5"],
           "d", "1 − 0.5² − 0.5² = 0.5, the largest value for two classes.",
           "gini = 1 − Σ p_j²."),
        _q("04", 2, "What does ByClass do that Randomized does not?",
           ["It adds less noise to each record's values before it trains the tree.",
            "It reconstructs each attribute's distribution per class before splitting.",
            "It trains on the original records and only tests on perturbed ones.",
            "It prunes the finished tree by MDL, where Randomized keeps every leaf."],
           "b", "Randomized splits the perturbed values as they are; ByClass reconstructs per class (Section 4).",
           "which algorithms of Section 4 call reconstruction, and on which records?"),
        _q("04", 3, "Why is test accuracy measured on ORIGINAL records?",
           ["Perturbed test records are not available to anyone.",
            "The finished tree will classify real, unperturbed records.",
            "It makes the measured accuracy higher than it really is.",
            "Perturbed test records would have the wrong set of columns."],
           "b", "the model is built from disguised data but used on real cases.",
           "who uses the tree, and on what records?"),
        _q("04", 4, "An unpruned tree trained on perturbed records…",
           ["…fits the noise: many leaves, lower accuracy.",
            "…is always the most accurate tree of the lot.",
            "…has the same number of leaves as a pruned one.",
            "…cannot be built: perturbed splits are undefined."],
           "a", "exercise 04.1 measures it: MDL pruning removes the leaves that only explain noise.",
           "compare n_leaves_ with and without pruning."),
        _q("04", 5, "Which of the five algorithms this notebook compares reconstruct distributions from the "
                    "perturbed values? Choose all that apply.",
           ["Original", "Randomized", "Global", "ByClass", "Local"],
           "cde", "Global reconstructs once at the root, ByClass per class, Local again at large nodes; Original "
                  "never sees noise and Randomized ignores it.",
           "which of them know the noise's distribution and use it?"),
        _r("04", 6, "A node holds 80 records of class A and 20 of class B. What is its Gini index? Give a number to "
                    "2 decimals.",
           0.32, 0.32, 2, "1 − 0.8² − 0.2² = 1 − 0.64 − 0.04 = 0.32.",
           "gini = 1 − Σ p_j² with the class shares of the node."),
    ),
    "05": (
        _q("05", 1, "How does RR-ID3 get a node's true counts from disguised data?",
           ["It solves Eq. 3 (the θ, 1 − θ matrix) for the true shares.",
            "It uses the disguised counts as they are, and corrects later.",
            "It asks the same respondents again, this time without a coin.",
            "It drops the disguised records and keeps only the honest ones."],
           "a", "observed = M · true with M = [[θ, 1 − θ], [1 − θ, θ]]; invert M.",
           "re-read 'How one node's counts are estimated'."),
        _q("05", 2, "What goes wrong with plain ID3 on disguised data?",
           ["Nothing: it is the same algorithm run on other data.",
            "It cannot read binary data, so it refuses to split.",
            "It needs θ = 0.5 to choose a split, so it stops early.",
            "It takes the disguised counts as true counts."],
           "d", "ID3's entropy is computed from counts that RR-ID3 first corrects; plain ID3's splits follow the "
                "coin.",
           "what does RR-ID3 do before computing the information gain?"),
        _q("05", 3, "Why does RR-ID3's accuracy collapse near θ = 0.5?",
           ["1 / |2θ − 1| scales up every count's sampling noise.",
            "The tree gets far too deep for the test data it sees.",
            "The test data change with θ, so the baseline moves too.",
            "The disguise becomes deterministic and hides nothing."],
           "a", "the inverse of M has entries of order 1 / |2θ − 1| (exercise 05.4).",
           "look at the inverse of the 2 × 2 matrix of Eq. 3."),
        _q("05", 4, "What does the server need to build RR-ID3's tree? Choose all that apply.",
           ["Which respondents' coins told them to lie.",
            "The value of θ used by the disguise.",
            "The original class label of each record.",
            "The disguised records, every attribute."],
           "bd", "the disguised records and θ are enough: Eq. 3 needs only those; who lied stays unknown.",
           "which quantities appear in Eq. 3?"),
        _r("05", 5, "By how much does the inverse of Eq. 3's matrix multiply sampling noise at θ = 0.6 (the factor "
                    "1 / |2θ − 1|)? Give a number to 1 decimal.",
           5.0, 5.0, 1, "1 / |1.2 − 1| = 5.", "put θ = 0.6 into 1 / |2θ − 1|."),
    ),
    "06": (
        _q("06", 1, "How does PerturbedGaussianNB estimate a class's variance of X from perturbed W?",
           ["It uses S²_W as it is.",
            "It divides S²_W by σ²_R.",
            "It subtracts: S²_W − σ²_R.",
            "It adds the noise: S²_W + σ²_R."],
           "c", "var(W) = var(X) + var(R) for independent noise (Liu et al. §5).",
           "what is var(X + R) for independent X and R?"),
        _q("06", 2, "Why can that variance estimate hit its floor at low SNR?",
           ["The data are discrete, so the sample variance of W is rounded to zero.",
            "S²_W − σ²_R is a small difference of two large numbers: it can be ≤ 0.",
            "The noise is uniform, so its variance is only known up to a factor.",
            "It never does: S²_W is always larger than σ²_R in any sample."],
           "b", "at SNR 0.1 the noise variance is ten times the signal's: the difference is tiny and noisy.",
           "how large are S²_W and σ²_R compared with var(X) at SNR 0.1?"),
        _q("06", 3, "With symmetric noise, PPDTC4.5 at threshold 0.5 is…",
           ["…C4.5 on the perturbed data: F_R⁻¹(0.5) = 0.",
            "…C4.5 on the original data, noise removed.",
            "…a tree with no splits: every node is a leaf.",
            "…ByClass: each class is reconstructed first."],
           "a", "p(w|t) > θ ⇔ w < t + F_R⁻¹(1 − θ), and F_R⁻¹(0.5) = 0 for symmetric noise: no split point moves.",
           "write p(w|t) > θ as a condition on w."),
        _q("06", 4, "What does PerturbedGaussianNB need from the data owner? Choose all that apply.",
           ["The original training records.",
            "The noise's variance per attribute.",
            "The perturbed test records to score.",
            "The perturbed training records and labels."],
           "bd", "it fits on perturbed records with their labels and subtracts the known noise variance; it "
                 "classifies original records.",
           "which inputs does fit() take, and which records does it classify?"),
        _r("06", 5, "Perturbed values W have sample variance 13 and the noise has σ_R = 3. What is the estimate of "
                    "var(X)? Give a number to 1 decimal.",
           4.0, 4.0, 1, "S²_W − σ²_R = 13 − 9 = 4.", "var(W) = var(X) + var(R), and var(R) = σ_R²."),
    ),
    "07": (
        _q("07", 1, "When does spectral filtering recover the original values well?",
           ["When the attributes are independent, so each can be filtered alone.",
            "When the noise is uniform, because its range is bounded on both sides.",
            "When the attributes are correlated: a few components carry the data.",
            "Never: additive noise can never be removed from individual values."],
           "c", "keeping the few large eigenvalues keeps the data and drops most of the noise, which is spread over "
                "all components.",
           "where does the data's variance sit in the eigenvalues, and where the noise's?"),
        _q("07", 2, "What does ε-local differential privacy bound?",
           ["The noise's variance, by ε.",
            "The number of queries, by ε.",
            "The accuracy of any estimate, by ε.",
            "Any output's probability ratio, by e^ε."],
           "d", "P(output | x) ≤ e^ε P(output | x') for all x, x' and outputs.",
           "LDP is a statement about one randomizer's output distributions."),
        _q("07", 3, "An audit runs a randomizer many times and does NOT refute its claimed ε. What does that show?",
           ["The claim is true: the randomizer gives what it says.",
            "Nothing for sure: an audit only bounds ε from below.",
            "The true ε is exactly the claimed one, to the digit.",
            "The randomizer is not differentially private at all."],
           "b", "an audit can only prove a claim false (its lower bound exceeds the claim); more runs might still "
                "refute it.",
           "is the audit's estimate an upper or a lower bound on the true ε?"),
        _q("07", 4, "What is a ρ1-to-ρ2 privacy breach (Evfimievski et al.)?",
           ["Two records that share the same value after the noise is added.",
            "A noise draw whose size exceeds ρ2 in absolute value.",
            "A belief of at most ρ1 that becomes at least ρ2 after one output.",
            "A mechanism whose ε exceeds the sum ρ1 + ρ2 of the two levels."],
           "c", "one answer moves the attacker's belief about a property from ≤ ρ1 to ≥ ρ2.",
           "a breach is a change of the attacker's belief."),
        _q("07", 5, "Which of these randomizers are ε-LDP for a finite ε (for the value-level neighbour relation)? "
                    "Choose all that apply.",
           ["Warner's device with θ = 0.75.",
            "Uniform noise on [−α, α] added to a value in [0, 1].",
            "GRR with k = 10 categories.",
            "Laplace noise of scale b added to a value in [0, 1]."],
           "acd", "Warner's device has ε = ln 3, GRR its ε by construction, Laplace ε = 1/b on a range of 1; uniform "
                  "noise has outputs only one of two inputs can produce, so its ε is infinite.",
           "for each, is there an output that one input can produce and another cannot?"),
        _r("07", 6, "Randomized response with θ = 0.75: what is the largest prior ρ1 that one answer cannot push to "
                    "ρ2 = 50 %? Give a fraction to 2 decimals.",
           0.25, 0.25, 2, "γ = θ / (1 − θ) = 3 and ρ1 = ρ2 / (ρ2 + γ(1 − ρ2)) = 1/4.",
           "a breach needs γ ≥ (ρ2 / (1 − ρ2)) (1 − ρ1) / ρ1; solve for ρ1."),
    ),
    "08": (
        _q("08", 1, "Uniform noise at 100 % interval privacy: what does auditing its ε show as the number of runs grows?",
           ["It settles near ε = 1, like a well-calibrated Laplace mechanism.",
            "It keeps growing: some outputs only one of two answers can produce.",
            "It settles near ln 3, the same as Warner's two-coin classroom device.",
            "It falls to 0, because noise that wide reveals nothing about anyone."],
           "b", "an output that one answer can produce and the other cannot makes the ratio of probabilities "
                "unbounded (ε = ∞); more runs see more of those outputs.",
           "can every output of uniform noise come from both of two answers? Re-read §2."),
        _q("08", 2, "At the same ε, how does the error of local randomization compare with a trusted curator's "
                    "(Laplace noise on the count) as n grows?",
           ["The ratio stays constant: both fall like 1/n.",
            "The ratio grows like n: the local error is flat.",
            "The local error becomes the smaller one for large n.",
            "The ratio grows like √n: 1/(ε√n) against 1/(nε)."],
           "d", "every answer carries its own noise locally; the curator adds noise once, to the total.",
           "write both errors as functions of n and divide. Re-read §4."),
        _q("08", 3, "When does OUE have a smaller variance than GRR (Wang et al. 2017)?",
           ["When k exceeds 3e^ε + 2.",
            "Always: one bit per category wins.",
            "When ε is large, above about 3.",
            "When n is larger than k, always."],
           "a", "Var_GRR / Var_OUE = (e^ε + k − 2) / (4e^ε) exceeds 1 exactly when k > 3e^ε + 2.",
           "GRR's true symbol drowns among k − 1 others; OUE's variance does not depend on k. Re-read §5."),
        _q("08", 4, "A mechanism claims ε = 1. Audited at its claimed δ, the 95 % lower bound is 0.4. What follows?",
           ["Its true ε is 0.4: the claim of 1 is too cautious.",
            "The claim is refuted, since the two numbers differ.",
            "Only that ε ≥ 0.4 at 95 %: the claim is not refuted.",
            "The claim is proved true, because the bound lies below it."],
           "c", "a lower bound can refute a claim (when it exceeds it), never certify it: a bound below the claim "
                "may come from a true claim whose telling outputs are rare (Gaussian noise's tail), or from a false "
                "one whose worst case the runs did not find.",
           "what can a finite number of runs prove about the worst case? Re-read §2 and its trade-off curve."),
        _q("08", 5, "Estimating a histogram from k-ary randomized response by Bayes' rule, repeated (the IBU of the "
                    "LDP literature), is…",
           ["…least squares on the observed counts, solved in one step.",
            "…a method that needs the true distribution as its input.",
            "…exact after one iteration from the uniform starting point.",
            "…the iterative Bayes of Agrawal & Srikant (notebook 02)."],
           "d", "start uniform, give each category its posterior share of every report, average, repeat: "
                "Agrawal & Srikant's update with GRR's response matrix.",
           "compare the update with notebook 02's reconstruction. Re-read §6."),
        _q("08", 6, "Which of these make a local mechanism's frequency estimate more accurate? Choose all that apply.",
           ["More respondents, at the same ε.",
            "A larger ε, with the same respondents.",
            "Auditing the mechanism with more runs.",
            "Reporting the claimed ε with more digits."],
           "ab", "the error falls with n (like 1/√n) and with ε; an audit or a claim changes nothing in the data.",
           "which of these changes the reports themselves?"),
        _r("08", 7, "At ε = 1 with k = 20 categories, what is Var_GRR / Var_OUE = (e^ε + k − 2) / (4e^ε)? Give a number "
                    "to 2 decimals.",
           1.90, 1.91, 2, "(e + 18) / (4e) ≈ 1.905: OUE wins clearly at k = 20.",
           "put ε = 1 and k = 20 into Wang et al.'s ratio."),
    ),
    "09": (
        _q("09", 1, "A curator answers random subset counts about n secret bits, each within E = o(√n) of the truth "
                    "(Dinur & Nissim 2003). What can an attacker with polynomial time do?",
           ["Rebuild a database matching all but o(n) of the bits.",
            "Learn the total count, yet nothing about one person.",
            "Rebuild the bits, but only with exponentially many queries.",
            "Guess each bit slightly better than a coin, no more."],
           "a", "least squares or one linear program on random queries: errors small against √n leave a vanishing "
                "share of the bits wrong.",
           "what does §3's curve do to the left of E = √n, and as n grows?"),
        _q("09", 2, "A statistics office rounds every published count to a whole number. Against this notebook's "
                    "attack, that error is…",
           ["…enough, because no published count is exact any more.",
            "…enough, because the attacker must know the rounding rule.",
            "…far below √n: least squares still rebuilds the bits.",
            "…a form of differential privacy with ε = 1/2 per count."],
           "c", "an error of at most 1/2 is o(√n); and rounding is deterministic, so it has no finite ε at all.",
           "compare an error of 1/2 with √n, and re-read §3."),
        _q("09", 3, "Each of m counts gets Laplace noise of scale 1/ε; neighbours: one person's bit changes. What is "
                    "the ε of all m answers together, by basic composition?",
           ["m ε: each count moves by at most 1, and the ε add up.",
            "ε: the noise on every count has the same size.",
            "ε / m: more answers spread the same budget thinner.",
            "√m ε: independent noises add up in quadrature."],
           "a", "sensitivity 1 per count, and basic composition adds the m values of ε; the Gaussian under zCDP is "
                "the mechanism whose noise grows like √m.",
           "what does one person's bit do to each count, and how do ε's of several releases combine? Re-read §4."),
        _q("09", 4, "At a total ε = 1 over m = 4n counts (§4), least squares recovered about half the bits. What "
                    "does that show?",
           ["That ε = 1 is too large: the attack nearly succeeds.",
            "That the promise failed: DP promised under one half.",
            "That this attacker stays below DP's promise for a bit.",
            "That least squares is the strongest attacker there is."],
           "c", "DP bounds every attacker at (e^ε + δ)/(1 + e^ε) per bit; one attacker below the bound confirms "
                "nothing more than that.",
           "what does DP promise an attacker at ε = 1, and about which attackers? Re-read §4."),
        _q("09", 5, "What did the Census Bureau's own attack on the 2010 tables show (Abowd et al.)?",
           ["Only block-level totals could be recovered from them.",
            "From published tables alone, whole blocks were rebuilt.",
            "Swapping made every reconstructed record wrong.",
            "Reconstruction needed the confidential microdata."],
           "b", "from 34 published tables the attack rebuilt block, sex, age, race and ethnicity, and an attacker "
                "can verify that every record of most blocks is right; 2020 moved to differential privacy.",
           "re-read §5: what did the attacker start from, and what came out?"),
        _q("09", 6, "Which of these keep least squares from rebuilding most of the bits (n = 100, m = 400)? Choose all "
                    "that apply.",
           ["Laplace noise at a total ε = 1, split over the 400 counts.",
            "Rounding every published count to a whole number.",
            "Gaussian noise at a total ε = 1, δ = 1e-5, by zCDP.",
            "Publishing every count with two fewer decimals."],
           "ac", "both DP releases put errors far above √n on every count; rounding leaves errors far below it.",
           "compare each error with √n = 10; re-read §3 and §4."),
        _r("09", 7, "Under a total (ε, δ) = (1, 0), for one person's bit changing, what is the most any attacker "
                    "can get right of one bit, (e^ε + δ) / (1 + e^ε)? Give a number to 2 decimals.",
           0.73, 0.73, 2, "e / (1 + e) ≈ 0.731: the share that randomized response on the bit itself reaches.",
           "put ε = 1 and δ = 0 into the bound."),
    ),
}

_BY_ID = {q.id: q for questions in QUIZZES.values() for q in questions}


def is_quiz_id(question_id) -> bool:
    """True for the id of a quiz question ("NN.qk").

    Parameters
    ----------
    question_id : object
        Anything.

    Returns
    -------
    bool
        Whether it names a question of :data:`QUIZZES`.
    """
    return isinstance(question_id, str) and question_id.strip() in _BY_ID


def quiz_ids(notebook: str | None = None) -> list[str]:
    """The ids of the quiz questions, in order (of one notebook "NN", or all).

    Parameters
    ----------
    notebook : str or None
        "00" .. "09", or None for all.

    Returns
    -------
    list of str
        Ids "NN.qk".
    """
    if notebook is not None and notebook not in QUIZZES:
        raise ValueError(f"notebook must be one of {', '.join(QUIZZES)}, got {notebook!r}")
    return [q.id for nb, qs in QUIZZES.items() if notebook in (None, nb) for q in qs]


def _letters(answer, q: Question) -> str | None:
    """The letters an answer names ("b", "B)", "a, c", ["a", "c"], an option's text), sorted; None
    when it names something else."""
    parts = [answer] if isinstance(answer, str) else list(answer) if isinstance(answer, (list, tuple, set)) else None
    if parts is None or not parts or not all(isinstance(p, str) for p in parts):
        return None
    chosen = set()
    for part in parts:
        text = part.strip().lower()
        # a letter ("a", "a)") first: an option whose text is itself a letter (01.q2's "a") is
        # chosen by its own letter
        exact = [letter for letter, option in zip(q.letters, q.options) if text == option.lower()]
        if exact and text.rstrip(")").strip() not in q.letters:
            chosen.update(exact)
            continue
        keys = [k.strip().rstrip(")").strip() for k in re.split(r"[,;\s]+", text) if k.strip()]
        if len(keys) == 1 and len(keys[0]) > 1 and q.multiple:  # "ac"
            keys = list(keys[0])
        if not keys or any(len(k) != 1 or k not in q.letters for k in keys):
            return None
        chosen.update(keys)
    return "".join(sorted(chosen))


# A number as the site's quiz reads a typed answer: a decimal comma is a point ("0,67").
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def range_value(answer) -> float | None:
    """A wrap-up answer as a float: a real number (not a bool), or text that is one ("0.67",
    "0,67", " 2/3" is not); None for anything else. A whole number too large for a float is
    ±inf (a number, and outside every range).

    Parameters
    ----------
    answer : object
        Plain data (see ``checking.foreign_object``).

    Returns
    -------
    float or None
        The number, or None when the answer is not one.

    Examples
    --------
    >>> range_value("0,67"), range_value(" 0.67 "), range_value("two thirds"), range_value(10**400)
    (0.67, 0.67, None, inf)
    """
    if isinstance(answer, str):
        text = answer.strip().replace(",", ".", 1)
        return float(text) if _NUMBER.fullmatch(text) else None
    if isinstance(answer, (bool, np.bool_)) or not isinstance(answer, numbers.Real):
        return None
    try:
        return float(answer)
    except OverflowError:  # 10**400: a number, too large for a float (numbers.Real orders with 0)
        return math.inf if answer > 0 else -math.inf  # type: ignore[operator]


def check_quiz(question_id: str, answer) -> CheckResult:
    """Check one quiz answer: a letter ("b"), several letters ("ab", "a, b" or ["a", "b"]) for a
    "choose all that apply" question, or a number for a wrap-up question.

    Parameters
    ----------
    question_id : str
        "NN.qk".
    answer : str, sequence of str, number or None
        The chosen letter(s) (case, spaces and "b)" ignored) or an option's full text; a number
        for a range question, or the number as text as the site's quiz takes it ("0.67", "0,67").

    Returns
    -------
    CheckResult
        kind "quiz"; correct with the reason, or *not yet* with a hint (never the right letter or
        number). A malformed answer is *not yet* with what is allowed.

    Raises
    ------
    TypeError
        ``question_id`` is not a string.
    ValueError
        ``question_id`` names no question (the message lists the ids).
    """
    if not isinstance(question_id, str):
        raise TypeError(f"question_id must be a string such as '03.q1', got {type(question_id).__name__} "
                        f"{question_id!r}"[:200])
    if question_id.strip() not in _BY_ID:
        raise ValueError(f"question_id {question_id!r} is not a quiz question; allowed: {', '.join(_BY_ID)}"[:2000])
    q = _BY_ID[question_id.strip()]
    foreign = foreign_object(answer)  # an object of the student's own type is never read
    if isinstance(q, RangeQuestion):
        fmt = f"a number, to {q.decimals} decimal" + "s" * (q.decimals != 1)
        if answer is None:
            return CheckResult(q.id, False, "quiz", f"write {fmt}.")
        value = None if foreign else range_value(answer)
        if value is None or math.isnan(value) or (math.isinf(value) and not isinstance(answer, int)):
            got = foreign or f"{type(answer).__name__} {answer!r}"[:200]
            return CheckResult(q.id, False, "quiz", f"the answer must be {fmt}; got {got}.")
        return CheckResult(q.id, True, "quiz", q.why) if q.accepts(value) else CheckResult(q.id, False, "quiz", q.hint)
    what = "all the letters that apply" if q.multiple else "one of the letters"
    if answer is None:
        return CheckResult(q.id, False, "quiz", f"choose {what} {', '.join(q.letters)}.")
    letters = None if foreign else _letters(answer, q)
    if letters is None or (len(letters) > 1 and not q.multiple):
        example = f'"{q.letters[0]}{q.letters[2]}"' if q.multiple else f'"{q.letters[0]}"'
        got = foreign or f"{type(answer).__name__} {answer!r}"
        return CheckResult(q.id, False, "quiz", f"the answer must be {what} {', '.join(q.letters)} (a string "
                                                f"such as {example}); got {got}"[:200] + ".")
    if letters == q.answer:
        return CheckResult(q.id, True, "quiz", q.why)
    return CheckResult(q.id, False, "quiz", q.hint)


def quiz_statistics(questions=None) -> dict:
    """How much a test-taking strategy gains: of the choice questions, in how many the right option
    is the strictly longest (one right option) or the right options are the longest ones (several),
    and how often each letter is right.

    Parameters
    ----------
    questions : iterable of Question or RangeQuestion, optional
        Default: every question of :data:`QUIZZES`.

    Returns
    -------
    dict
        ``choice`` (number of choice questions), ``longest_is_right`` (count), ``longest_share``,
        ``letters`` (letter -> how often it is right, over the one-answer questions), ``multiple``
        (questions with several right options), ``range`` (wrap-up range questions).

    Examples
    --------
    >>> quiz_statistics()["longest_share"] <= 0.35
    True
    """
    questions = list(questions if questions is not None else (q for qs in QUIZZES.values() for q in qs))
    choice = [q for q in questions if isinstance(q, Question)]
    longest = 0
    for q in choice:
        lengths = {letter: len(text) for letter, text in zip(q.letters, q.options)}
        right = [lengths[a] for a in q.answer]
        wrong = [n for letter, n in lengths.items() if letter not in q.answer]
        longest += min(right) > max(wrong)
    letters = Counter(q.answer for q in choice if not q.multiple)
    return {"choice": len(choice), "longest_is_right": longest, "longest_share": longest / max(1, len(choice)),
            "letters": dict(sorted(letters.items())), "multiple": sum(q.multiple for q in choice),
            "range": sum(isinstance(q, RangeQuestion) for q in questions)}


def quiz(notebook: str):
    """Show the quiz of one notebook: radio buttons and a *Check* button per question.

    Needs ipywidgets (the ``[lab]`` extra); without it, prints the questions and how to answer
    them with ``check("NN.qk", "b")``.

    Parameters
    ----------
    notebook : str
        "00" .. "09".

    Returns
    -------
    ipywidgets.VBox or str
        The widgets (displayed by Jupyter), or the questions as text when ipywidgets is missing.
    """
    questions = QUIZZES.get(str(notebook).zfill(2)) if isinstance(notebook, (str, int)) else None
    if questions is None:
        raise ValueError(f"notebook must be one of {', '.join(QUIZZES)}, got {notebook!r}")
    try:  # the widgets need the [lab] extra; without it the quiz is text and check("NN.qk", ...)
        from ..widgets.quiz import quiz_widget
    except ImportError:
        return as_text(questions)
    return quiz_widget(questions, check_quiz)


def as_text(questions) -> str:
    """The questions as plain text (no widgets).

    Parameters
    ----------
    questions : sequence of Question or RangeQuestion
        One notebook's quiz.

    Returns
    -------
    str
        Each question with its lettered options and the ``check`` call that answers it.
    """
    lines = []
    for q in questions:
        lines.append(f"{q.id}. {q.prompt}")
        if isinstance(q, RangeQuestion):
            lines.append(f'   answer with check("{q.id}", <a number to {q.decimals} decimals>)')
            continue
        lines += [f"   {letter}) {text}" for letter, text in zip(q.letters, q.options)]
        example = '"ab"' if q.multiple else '"a"/"b"/...'
        lines.append(f'   answer with check("{q.id}", {example})')
    return "\n".join(lines)

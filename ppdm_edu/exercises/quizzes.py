"""Multiple-choice concept questions, 3-4 per notebook (issue 30 §1, "Quizzes").

One source of truth for both places a quiz appears:

* in a notebook, ``quiz("03")`` shows each question as radio buttons with a *Check* button
  (ipywidgets, imported only when called) and ``check("03.q1", "b")`` checks one answer as text;
* on the website, with no kernel, ``site/_quiz.py`` renders the same questions at build time as
  HTML (native radio inputs in a fieldset with a legend, an ``aria-live`` verdict) and a few lines
  of JavaScript.

A wrong choice gets the hint of that choice (never the right letter); a right one the reason.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .checking import CheckResult

__all__ = ["Question", "QUIZZES", "quiz", "quiz_ids", "check_quiz", "is_quiz_id"]

LETTERS = "abcdef"


@dataclass(frozen=True)
class Question:
    """One multiple-choice question.

    Attributes
    ----------
    id : str
        "NN.qk": notebook NN, question k.
    prompt : str
        The question.
    options : tuple of str
        The choices, shown as a), b), ...
    answer : str
        The letter of the right choice.
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
        if self.answer not in LETTERS[:len(self.options)]:
            raise ValueError(f"question {self.id}: answer must be one of {LETTERS[:len(self.options)]!r}, "
                             f"got {self.answer!r}")

    @property
    def letters(self) -> str:
        """The letters of the options ("abcd" for four)."""
        return LETTERS[:len(self.options)]


def _q(nb: str, k: int, prompt: str, options, answer: str, why: str, hint: str) -> Question:
    return Question(f"{nb}.q{k}", prompt, tuple(options), answer, why, hint)


QUIZZES: dict[str, tuple[Question, ...]] = {
    "00": (
        _q("00", 1, "In Agrawal & Srikant's value distortion, what does the server receive for each record?",
           ["The record, encrypted with a key the server does not have.",
            "Each value with random noise added (w = x + r); the noise's distribution is public.",
            "Only counts over many records, never a record.",
            "A random sample of the original records."],
           "b", "each value is disguised on its own; only the noise's distribution is known to everyone.",
           "re-read 'The learning path', and §1 of notebook 01 ('A record leaves the browser')."),
        _q("00", 2, "Which attribute decides the class of Agrawal's Function 1?",
           ["salary", "loan", "age", "commission"],
           "c", "Group A: younger than 40, or 60 and older.",
           "look at the rule of Function 1 in Table 3."),
        _q("00", 3, "Why do the notebooks pass an integer seed (rng=0) to every generator?",
           ["The same seed gives the same records, so a result can be checked and reproduced.",
            "A seed makes the noise smaller.",
            "The seed encrypts the records.",
            "Without a seed the generators are slower."],
           "a", "a seed fixes the random stream: rerun the cell, get the same numbers.",
           "what stays the same when you rerun a cell with the same seed?"),
    ),
    "01": (
        _q("01", 1, "Uniform noise on [−α, α]: how wide is the interval that holds x with 100 % confidence "
                    "(Table 1's interval privacy)?",
           ["α", "α / 2", "α √3", "2α"],
           "d", "w − r ranges over a window of width 2α; at 95 % confidence it is 0.95 × 2α.",
           "how wide is the range of the noise itself?"),
        _q("01", 2, "What is the entropy privacy Π(A) = 2^h(A) of a variable uniform on [0, a]?",
           ["a", "a / 2", "log2 a", "a²"],
           "a", "h = log2 a, so Π = a: Π is the length of an equally uncertain uniform interval.",
           "compute h(A) = log2 a first, then 2^h."),
        _q("01", 3, "The perturbed W is independent of X (the noise drowns everything). What is the privacy "
                    "loss 1 − 2^(−I(X;W))?",
           ["1", "0", "0.5", "it is undefined"],
           "b", "I(X;W) = 0, so nothing is lost.",
           "what is the mutual information of two independent variables?"),
        _q("01", 4, "What does a higher signal-to-noise ratio var(X) / var(R) mean?",
           ["More privacy and less accurate mining.",
            "No change in privacy, only in accuracy.",
            "Less privacy and more accurate mining.",
            "More privacy and more accurate mining."],
           "c", "less noise relative to the data: more is revealed, and more can be learnt.",
           "which way does the privacy loss move as the noise shrinks?"),
    ),
    "02": (
        _q("02", 1, "What does the reconstruction algorithm estimate?",
           ["Each original value x_i.",
            "The distribution f_X of the original values.",
            "The noise added to each record.",
            "The class of each record."],
           "b", "the individual values stay hidden; their distribution is recovered.",
           "does the algorithm ever output one value per record?"),
        _q("02", 2, "Why can the distribution be recovered although every value is hidden?",
           ["The noise's distribution is known, and over many records its effect can be undone.",
            "The noise is too small to matter.",
            "The server keeps the random seeds.",
            "The records arrive sorted."],
           "a", "Bayes' rule with the known noise density, applied to many records, moves the estimate towards the "
                "distribution that best explains the perturbed sample (its maximum-likelihood fit), not to f_X itself.",
           "what does the server know about the noise?"),
        _q("02", 3, "Iterative Bayes and EM differ in one place. Which?",
           ["EM needs the original values; Bayes does not.",
            "Bayes uses a different prior for every record.",
            "EM uses the exact probability of each interval; Bayes the noise density at interval mid-points.",
            "They do not differ at all."],
           "c", "the response matrices differ by the mid-point approximation only (exercise 02.4 measures it).",
           "compare how the two fill their response matrix."),
        _q("02", 4, "What happens if the iteration runs for a very long time with a tiny tolerance?",
           ["The estimate always gets closer to the truth.",
            "It can start to fit the noise of this sample (overfit).",
            "It diverges to infinity.",
            "Nothing: it stops after one step."],
           "b", "the maximum-likelihood fit chases the sample's noise; a held-out stop avoids that.",
           "re-read 'When to stop' in §2."),
    ),
    "03": (
        _q("03", 1, "Warner's device answers truthfully with probability θ. For which θ can the true proportion "
                    "NOT be estimated?",
           ["θ = 0", "θ = 0.75", "θ = 0.5", "θ = 1"],
           "c", "at θ = 0.5 the answer is independent of the truth: the estimate divides by 2θ − 1 = 0.",
           "look at the denominator 2θ − 1 of the estimator."),
        _q("03", 2, "What is ε for Warner's device with probability θ?",
           ["|ln(θ / (1 − θ))|", "θ / (1 − θ)", "log2 θ", "2θ − 1"],
           "a", "the largest log-ratio of the probabilities of one answer under the two truths.",
           "ε is a natural logarithm of a ratio of two probabilities."),
        _q("03", 3, "A classroom device: toss two coins, answer truthfully unless both show tails (then lie). "
                    "What are θ and ε?",
           ["θ = 0.5, ε = 0", "θ = 0.75, ε = ln 3", "θ = 0.25, ε = ln 4", "θ = 0.75, ε = 0.75"],
           "b", "P(not both tails) = 3/4, and ln(0.75 / 0.25) = ln 3 ≈ 1.10.",
           "P(two tails) = 1/4; then use ε = ln(θ / (1 − θ))."),
        _q("03", 4, "How do θ = 0.2 and θ = 0.8 compare?",
           ["0.8 is more private.",
            "0.2 is more private but less precise.",
            "0.2 cannot be used.",
            "Same ε and same variance: a device that mostly lies is a relabelled truthful one."],
           "d", "θ and 1 − θ give the same |ln(θ/(1 − θ))| and the same (2θ − 1)².",
           "put θ and 1 − θ into ε and into the variance."),
    ),
    "04": (
        _q("04", 1, "What is the Gini index of a node with 50 % of each of two classes?",
           ["0", "0.25", "0.5", "1"],
           "c", "1 − 0.5² − 0.5² = 0.5, the largest value for two classes.",
           "gini = 1 − Σ p_j²."),
        _q("04", 2, "What does ByClass do that Randomized does not?",
           ["It adds less noise.",
            "It reconstructs each attribute's distribution separately for each class before choosing splits.",
            "It trains on the original records.",
            "It prunes the tree."],
           "b", "Randomized splits the perturbed values as they are; ByClass reconstructs per class (Section 4).",
           "which algorithms of Section 4 call reconstruction, and on which records?"),
        _q("04", 3, "Why is test accuracy measured on ORIGINAL records?",
           ["The tree will classify real, unperturbed records.",
            "Perturbed test records are not available.",
            "It makes the accuracy higher.",
            "Perturbed test records would have the wrong columns."],
           "a", "the model is built from disguised data but used on real cases.",
           "who uses the tree, and on what records?"),
        _q("04", 4, "An unpruned tree trained on perturbed records…",
           ["…is always the most accurate.",
            "…has the same size as the pruned one.",
            "…fits the noise: thousands of leaves, lower accuracy on original records.",
            "…cannot be built."],
           "c", "exercise 04.1 measures it: MDL pruning removes the leaves that only explain noise.",
           "compare n_leaves_ with and without pruning."),
    ),
    "05": (
        _q("05", 1, "How does RR-ID3 get a node's true counts from disguised data?",
           ["It uses the disguised counts as they are.",
            "It asks the respondents again.",
            "It solves the linear system of Eq. 3 (the matrix of θ and 1 − θ) for the true proportions.",
            "It drops the disguised records."],
           "c", "observed = M · true with M = [[θ, 1 − θ], [1 − θ, θ]]; invert M.",
           "re-read 'How one node's counts are estimated'."),
        _q("05", 2, "What goes wrong with plain ID3 on disguised data?",
           ["Nothing: it is the same algorithm.",
            "It treats the disguised counts as true counts, so its splits and leaves follow the coin.",
            "It cannot read binary data.",
            "It needs θ = 0.5."],
           "b", "ID3's entropy is computed from counts that RR-ID3 first corrects.",
           "what does RR-ID3 do before computing the information gain?"),
        _q("05", 3, "Why does RR-ID3's accuracy collapse near θ = 0.5?",
           ["The tree gets too deep.",
            "The test data change.",
            "The factor 1 / |2θ − 1| multiplies the sampling noise of every estimated count.",
            "The disguise becomes deterministic."],
           "c", "the inverse of M has entries of order 1 / |2θ − 1| (exercise 05.4).",
           "look at the inverse of the 2 × 2 matrix of Eq. 3."),
    ),
    "06": (
        _q("06", 1, "How does PerturbedGaussianNB estimate a class's variance of X from perturbed W?",
           ["It subtracts the known noise variance: S²_W − σ²_R.",
            "It adds the noise variance.",
            "It uses S²_W as it is.",
            "It divides S²_W by σ²_R."],
           "a", "var(W) = var(X) + var(R) for independent noise (Liu et al. §5).",
           "what is var(X + R) for independent X and R?"),
        _q("06", 2, "Why can that variance estimate hit its floor at low SNR?",
           ["Because the data are discrete.",
            "It is the difference of two large numbers, S²_W − σ²_R, which sampling can make ≤ 0.",
            "Because the noise is uniform.",
            "It never does."],
           "b", "at SNR 0.1 the noise variance is ten times the signal's: the difference is tiny and noisy.",
           "how large are S²_W and σ²_R compared with var(X) at SNR 0.1?"),
        _q("06", 3, "With symmetric noise, PPDTC4.5 at threshold 0.5 is…",
           ["…C4.5 on the original data.",
            "…a tree with no splits.",
            "…C4.5 on the perturbed data: F_R⁻¹(0.5) = 0, so no split point moves.",
            "…ByClass."],
           "c", "p(w|t) > θ ⇔ w < t + F_R⁻¹(1 − θ), and F_R⁻¹(0.5) = 0 for symmetric noise.",
           "write p(w|t) > θ as a condition on w."),
    ),
    "07": (
        _q("07", 1, "When does spectral filtering recover the original values well?",
           ["When the attributes are independent.",
            "When the attributes are strongly correlated: a few components carry the data, the noise is spread "
            "over all.",
            "When the noise is uniform.",
            "Never: additive noise cannot be removed."],
           "b", "keeping the few large eigenvalues keeps the data and drops most of the noise.",
           "where does the data's variance sit in the eigenvalues, and where the noise's?"),
        _q("07", 2, "What does ε-local differential privacy bound?",
           ["The ratio of the probabilities of any output under any two inputs, by e^ε.",
            "The noise's variance by ε.",
            "The number of queries by ε.",
            "The accuracy of any estimate by ε."],
           "a", "P(output | x) ≤ e^ε P(output | x') for all x, x' and outputs.",
           "LDP is a statement about one randomizer's output distributions."),
        _q("07", 3, "An audit runs a randomizer many times and does NOT refute its claimed ε. What does that show?",
           ["The claim is true.",
            "The true ε is exactly the claimed one.",
            "The randomizer is not differentially private.",
            "Nothing for sure: an audit gives a lower bound on ε, and more runs might still refute it."],
           "d", "an audit can only prove a claim false (its lower bound exceeds the claim).",
           "is the audit's estimate an upper or a lower bound on the true ε?"),
        _q("07", 4, "What is a ρ1-to-ρ2 privacy breach (Evfimievski et al.)?",
           ["Two records with the same value.",
            "A prior belief of at most ρ1 about a property becomes a posterior of at least ρ2 after one output.",
            "The noise exceeds ρ2.",
            "ε exceeds ρ1 + ρ2."],
           "b", "one answer moves the attacker's belief from ≤ ρ1 to ≥ ρ2.",
           "a breach is a change of the attacker's belief."),
    ),
    "08": (
        _q("08", 1, "Uniform noise at 100 % interval privacy: what does auditing its ε show as the number of runs grows?",
           ["It settles near ε = 1.",
            "It settles near ln 3, like Warner's device.",
            "It falls to 0: wide noise reveals nothing.",
            "It keeps growing: outputs near the ends of the noise can come from only one of two answers, so "
            "ε = ∞."],
           "d", "an output that one answer can produce and the other cannot makes the ratio of probabilities "
                "unbounded; more runs see more of those outputs.",
           "can every output of uniform noise come from both of two answers? Re-read §2."),
        _q("08", 2, "At the same ε, how does the error of local randomization compare with a trusted curator's "
                    "(Laplace noise on the count) as n grows?",
           ["The ratio stays constant.",
            "The ratio grows like √n: local error ~1/(ε√n), central ~1/(nε).",
            "The ratio grows like n.",
            "The local error becomes smaller for large n."],
           "b", "every answer carries its own noise locally; the curator adds noise once, to the total.",
           "write both errors as functions of n and divide. Re-read §4."),
        _q("08", 3, "When does OUE have a smaller variance than GRR (Wang et al. 2017)?",
           ["When the number of categories k exceeds 3e^ε + 2.",
            "Always: one bit per category is always better.",
            "When ε is large.",
            "When n is larger than k."],
           "a", "Var_GRR / Var_OUE = (e^ε + k − 2) / (4e^ε) exceeds 1 exactly when k > 3e^ε + 2.",
           "GRR's true symbol drowns among k − 1 others; OUE's variance does not depend on k. Re-read §5."),
        _q("08", 4, "What is the audited ε of a mechanism?",
           ["Its claimed ε, computed from the formula.",
            "An upper bound on the true ε.",
            "A lower bound on the true ε (95 % confidence) measured from runs on two inputs: it needs no "
            "formula, so it places every mechanism on one scale.",
            "Its error on a task, converted to ε."],
           "c", "the audit counts outputs of many runs on two inputs and bounds the ratio of their probabilities "
                "from below.",
           "can a finite number of runs prove that ε is small? Re-read §2 and notebook 07."),
        _q("08", 5, "Estimating a histogram from k-ary randomized response by Bayes' rule, repeated (the IBU of the "
                    "LDP literature), is…",
           ["…least squares on the counts.",
            "…the same iterative Bayes as Agrawal & Srikant's reconstruction (notebook 02).",
            "…a method that needs the true distribution.",
            "…exact after one iteration."],
           "b", "start uniform, give each category its posterior share of every report, average, repeat: "
                "Agrawal & Srikant's update with GRR's response matrix.",
           "compare the update with notebook 02's reconstruction. Re-read §6."),
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
        "00" .. "08", or None for all.

    Returns
    -------
    list of str
        Ids "NN.qk".
    """
    if notebook is not None and notebook not in QUIZZES:
        raise ValueError(f"notebook must be one of {', '.join(QUIZZES)}, got {notebook!r}")
    return [q.id for nb, qs in QUIZZES.items() if notebook in (None, nb) for q in qs]


def check_quiz(question_id: str, answer) -> CheckResult:
    """Check one quiz answer: a letter ("b") or the option's text.

    Parameters
    ----------
    question_id : str
        "NN.qk".
    answer : str or None
        The chosen letter (case and spaces ignored, "b)" accepted) or the option's full text.

    Returns
    -------
    CheckResult
        kind "quiz"; correct with the reason, or *not yet* with a hint (never the right letter).
        A malformed answer (not one of the letters) is *not yet* with the allowed letters.

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
    if answer is None:
        return CheckResult(q.id, False, "quiz", f"choose one of {', '.join(q.letters)}.")
    letter = None
    if isinstance(answer, str):
        key = answer.strip().lower().rstrip(")").strip()
        if key in q.letters and len(key) == 1:
            letter = key
        else:
            for option_letter, text in zip(q.letters, q.options):
                if answer.strip().lower() == text.lower():
                    letter = option_letter
    if letter is None:
        return CheckResult(q.id, False, "quiz", f"the answer must be one of the letters {', '.join(q.letters)} "
                                                f"(a string such as \"{q.letters[0]}\"); got {type(answer).__name__} "
                                                f"{answer!r}"[:200] + ".")
    if letter == q.answer:
        return CheckResult(q.id, True, "quiz", q.why)
    return CheckResult(q.id, False, "quiz", q.hint)


def quiz(notebook: str):
    """Show the quiz of one notebook: radio buttons and a *Check* button per question.

    Needs ipywidgets (the ``[lab]`` extra); without it, prints the questions and how to answer
    them with ``check("NN.qk", "b")``.

    Parameters
    ----------
    notebook : str
        "00" .. "08".

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
    questions : sequence of Question
        One notebook's quiz.

    Returns
    -------
    str
        Each question with its lettered options and the ``check`` call that answers it.
    """
    lines = []
    for q in questions:
        lines.append(f"{q.id}. {q.prompt}")
        lines += [f"   {letter}) {text}" for letter, text in zip(q.letters, q.options)]
        lines.append(f'   answer with check("{q.id}", "a"/"b"/...)')
    return "\n".join(lines)

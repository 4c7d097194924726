/* ppdm-edu site search: the lesson that teaches a term first, then the other lessons, then API
 * entries. Sphinx inlines this file into language_data.js (conf.py: html_search_scorer).
 * Sphinx's own weights are kept; every result from a notebook gets +100, more than any object
 * match can score (11 + 15 at most), so lessons come before the functions that compute a term.
 * A query that names a term of TEACHES also lifts the notebook that teaches it (+300) and the
 * ones that use it most (+200), whatever the term's count in other pages: "randomized response"
 * is taught in 03 even though 02 mentions it in a heading. tests/browser/test_search_ranking.py
 * checks each term. */
(function () {
  var TEACHES = {
    "randomized response": ["03_randomized_response", "05_randomized_response_trees"],
    "warner": ["03_randomized_response"],
    "reconstruction": ["02_reconstruction", "04_trees_on_perturbed_data"],
    "epsilon": ["07_attacks_and_local_dp", "08_choosing_a_mechanism"],
    "ε": ["07_attacks_and_local_dp", "08_choosing_a_mechanism"],
    "local differential privacy": ["07_attacks_and_local_dp", "08_choosing_a_mechanism"],
    "laplace": ["07_attacks_and_local_dp", "08_choosing_a_mechanism"],
    "grr": ["08_choosing_a_mechanism"],
    "oue": ["08_choosing_a_mechanism"],
    "privacy interval": ["01_randomization_and_privacy"],
    "decision tree": ["04_trees_on_perturbed_data", "05_randomized_response_trees"],
    "reconstruction attack": ["09_reconstruction_attacks"],
    "dinur": ["09_reconstruction_attacks"],
    "census": ["09_reconstruction_attacks"],
    "subset sum": ["09_reconstruction_attacks"],
  };
  var scorer = (typeof Scorer !== "undefined") ? Scorer : {
    objNameMatch: 11, objPartialMatch: 6, objPrio: {0: 15, 1: 5, 2: -5}, objPrioDefault: 0,
    title: 15, partialTitle: 7, term: 5, partialTerm: 2,
  };
  var query = "";
  try {
    query = (new URLSearchParams(window.location.search).get("q") || "").trim().toLowerCase();
  } catch (e) { query = ""; }
  var lift = {};
  Object.keys(TEACHES).forEach(function (term) {
    if (query === term || query.indexOf(term) !== -1) {
      TEACHES[term].forEach(function (stem, rank) {
        // a term of several words is the more specific one ("reconstruction attack" over
        // "reconstruction"): it lifts its notebook further
        var specific = 50 * (term.split(" ").length - 1);
        lift["notebooks/" + stem] = Math.max(lift["notebooks/" + stem] || 0, (rank === 0 ? 300 : 200) + specific);
      });
    }
  });
  scorer.score = function (result) {
    var docname = result[0], score = result[4];
    if (docname.indexOf("notebooks/") !== 0) { return score; }
    return score + 100 + (lift[docname] || 0);
  };
  window.Scorer = scorer;
})();

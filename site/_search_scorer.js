/* ppdm-edu site search (issue 30): the lessons (notebooks/*) rank above API entries.
 * Sphinx inlines this file into language_data.js (conf.py: html_search_scorer). Sphinx's own
 * weights are kept; every result from a notebook gets +100, more than any object match can
 * score (11 + 15 at most), so "reconstruction", "randomized response" or "epsilon" list the
 * notebooks that teach it before the functions that compute it. */
(function () {
  var scorer = (typeof Scorer !== "undefined") ? Scorer : {
    objNameMatch: 11, objPartialMatch: 6, objPrio: {0: 15, 1: 5, 2: -5}, objPrioDefault: 0,
    title: 15, partialTitle: 7, term: 5, partialTerm: 2,
  };
  scorer.score = function (result) {
    var docname = result[0], score = result[4];
    return docname.indexOf("notebooks/") === 0 ? score + 100 : score;
  };
  window.Scorer = scorer;
})();

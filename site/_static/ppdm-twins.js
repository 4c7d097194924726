/* Kernel-free twins of the course's panels (site/_twins.py writes the states; issue 25 §2).
 *
 * Each .ppdm-twin holds native controls (range inputs, selects, radios, check boxes) whose
 * values are indices into the build-time grid; window.PPDM_TWINS[id] (the twin's data.js) has
 * one state per grid point, row-major: {f: frame file, a: alt text, r: read-out HTML} or
 * {m: 1, r: message} where the panel shows a message instead of its figure. A change of any
 * control shows the state of the controls' indices. Nothing is computed here. The read-out is
 * never assigned as HTML: it is parsed into an inert document and rebuilt node by node (text as
 * text nodes, only the tags and attributes a read-out uses), so no state can run a script.
 */
(function () {
  "use strict";
  if (window.ppdmTwins) { return; }  // one copy runs, however many twins load it

  /* the state's place in the list: the controls' indices read as a mixed-radix number */
  function flatIndex(indices, radices) {
    var k = 0;
    for (var c = 0; c < radices.length; c++) { k = k * radices[c] + indices[c]; }
    return k;
  }

  /* the grid points one step away from indices (to fetch their frames before they are asked) */
  function neighbours(indices, radices) {
    var out = [];
    for (var c = 0; c < radices.length; c++) {
      [-1, 1].forEach(function (d) {
        var i = indices[c] + d;
        if (radices[c] > 1 && i >= 0 && i < radices[c]) {
          var next = indices.slice(); next[c] = i; out.push(next);
        }
      });
    }
    return out;
  }

  function readIndices(root, spec) {
    var indices = [];
    for (var c = 0; c < spec.radices.length; c++) {
      if (spec.radices[c] === 1) { indices.push(0); continue; }
      var inputs = root.querySelectorAll('[data-control="' + c + '"]');
      var el = inputs[0], value = 0;
      if (el.type === "radio") {
        for (var k = 0; k < inputs.length; k++) { if (inputs[k].checked) { value = +inputs[k].value; } }
      } else if (el.type === "checkbox") {
        value = el.checked ? 1 : 0;
      } else {
        value = +el.value;
      }
      indices.push(value);
    }
    return indices;
  }

  /* the tags and attributes the panels' read-outs use; anything else is dropped (its text kept) */
  var TAGS = /^(b|i|em|strong|span|div|p|br|sub|sup|small|code|pre|table|thead|tbody|tr|th|td|ul|ol|li|details|summary)$/;
  var DROP = /^(script|style|template|noscript|iframe|object|embed|svg|math)$/;
  var ATTRS = /^(style|class|role|title|colspan|rowspan|aria-[a-z]+)$/;

  function copyNodes(target, source) {
    var nodes = source.childNodes;
    for (var k = 0; k < nodes.length; k++) {
      var node = nodes[k];
      if (node.nodeType === 3) { target.appendChild(document.createTextNode(node.nodeValue)); continue; }
      if (node.nodeType !== 1) { continue; }
      var tag = node.tagName.toLowerCase();
      if (DROP.test(tag)) { continue; }
      if (!TAGS.test(tag)) { copyNodes(target, node); continue; }
      var el = document.createElement(tag);
      for (var a = 0; a < node.attributes.length; a++) {
        var at = node.attributes[a];
        if (ATTRS.test(at.name) && !(at.name === "style" && /url\s*\(|expression/i.test(at.value))) {
          el.setAttribute(at.name, at.value);
        }
      }
      copyNodes(el, node);
      target.appendChild(el);
    }
  }

  /* replace the read-out's content by the state's markup, built as DOM nodes */
  function setReadout(readout, markup) {
    readout.textContent = "";
    copyNodes(readout, new DOMParser().parseFromString(String(markup), "text/html").body);
  }

  function show(root, spec, indices) {
    var state = spec.states[flatIndex(indices, spec.radices)];
    var img = root.querySelector("img.ppdm-twin-figure");
    var readout = root.querySelector(".ppdm-twin-readout");
    var base = root.getAttribute("data-base");
    if (state.f) {
      img.src = base + state.f;
      img.alt = state.a;
      img.hidden = false;
    } else {
      img.hidden = true;  // as the live panel: a message instead of the figure
    }
    setReadout(readout, state.r);
    for (var c = 0; c < indices.length; c++) {
      var el = root.querySelector('input[type="range"][data-control="' + c + '"]');
      if (el) {
        var label = spec.controls[c].labels[indices[c]];
        el.setAttribute("aria-valuetext", label);
        var output = root.querySelector('output[for="' + el.id + '"]');
        if (output) { output.textContent = label; }
      }
    }
    root.setAttribute("data-state", indices.join("-"));
    neighbours(indices, spec.radices).forEach(function (next) {
      var s = spec.states[flatIndex(next, spec.radices)];
      if (s.f) { (new Image()).src = base + s.f; }
    });
    return state;
  }

  function setup(root) {
    var spec = (window.PPDM_TWINS || {})[root.getAttribute("data-twin")];
    if (!spec || root.getAttribute("data-ready")) { return; }
    var update = function () { show(root, spec, readIndices(root, spec)); };
    root.addEventListener("input", update);
    root.addEventListener("change", update);
    root.setAttribute("data-ready", "1");
  }

  window.ppdmTwins = {flatIndex: flatIndex, neighbours: neighbours, show: show, setup: setup,
                      setReadout: setReadout};
  var start = function () { document.querySelectorAll(".ppdm-twin").forEach(setup); };
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();

"""The twins' script never assigns build-time text as HTML: the read-out is rebuilt as DOM nodes
(text as text, only the tags and attributes a read-out uses). Run in node with a minimal fake DOM
(no browser); skipped without node, except under CI (tests/conftest.py)."""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "site" / "_static" / "ppdm-twins.js"

HARNESS = r"""
const fs = require("fs");
function El(tag, attrs, children) {
  return {nodeType: 1, tagName: tag.toUpperCase(), childNodes: children || [],
          attributes: Object.entries(attrs || {}).map(([name, value]) => ({name, value}))};
}
function T(text) { return {nodeType: 3, nodeValue: text}; }
function made(tag) {
  return {tag, attrs: {}, childNodes: [], setAttribute(n, v) { this.attrs[n] = v; },
          appendChild(c) { this.childNodes.push(c); }, set textContent(v) { this.childNodes = []; }};
}
global.window = {};
global.document = {readyState: "complete", querySelectorAll: () => [],
                   createElement: made, createTextNode: (t) => ({text: t})};
const TREE = El("body", {}, [
  T("accuracy "), El("b", {onclick: "steal()"}, [T("0.81")]),
  El("script", {}, [T("alert(1)")]),
  El("img", {src: "x", onerror: "alert(2)"}, []),
  El("span", {style: "color:#0072B2", "aria-hidden": "true", onmouseover: "alert(3)"}, [T("\u25a0")]),
  El("a", {href: "javascript:alert(4)"}, [T("a link")]),
  El("span", {style: "background:url(http://example.invalid/x)"}, [T("bg")]),
]);
global.DOMParser = class { parseFromString(markup, type) { return {body: TREE, markup, type}; } };
eval(fs.readFileSync(process.argv[2], "utf8"));
const readout = made("div");
readout.childNodes.push({text: "old"});
window.ppdmTwins.setReadout(readout, "<b>ignored: the fake parser returns TREE</b>");
function plain(n) { return n.text !== undefined ? n.text : {tag: n.tag, attrs: n.attrs, children: n.childNodes.map(plain)}; }
console.log(JSON.stringify(readout.childNodes.map(plain)));
"""


def test_the_script_assigns_no_html():
    source = SCRIPT.read_text(encoding="utf-8")
    assert not re.search(r"\.(innerHTML|outerHTML)\s*=|insertAdjacentHTML|document\.write", source)


def test_the_readout_is_rebuilt_without_scripts_handlers_links_or_urls(tmp_path, node):
    harness = tmp_path / "harness.js"
    harness.write_text(HARNESS)
    out = subprocess.run([node, str(harness), str(SCRIPT)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == [
        "accuracy ",
        {"tag": "b", "attrs": {}, "children": ["0.81"]},                       # no onclick
        {"tag": "span", "attrs": {"style": "color:#0072B2", "aria-hidden": "true"}, "children": ["\u25a0"]},
        "a link",                                                               # the link's text only
        {"tag": "span", "attrs": {}, "children": ["bg"]},                       # no url() style
    ]

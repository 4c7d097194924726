// The view of the panels' sliders (ppdm_edu/widgets/_slider.py): a native <input type="range">
// with the control's accessible name (aria-label: its label and what it means), its value in
// words (aria-valuetext: the read-out and the unit), a <label> and an <output> read-out.
// The browser gives it the keyboard (arrows, Home, End, Page Up/Down) and the screen readers'
// slider role; nothing of ipywidgets' own slider (noUiSlider, whose handle has no name) is used.
//
// The positions are the slider's own (min + k * step, as the site's twins list them). The range
// input holds the value itself (so that its value, too, is the number the read-out shows), except
// for a log slider, whose input steps over its positions by index (its exponent's steps).

function positions(model) {
  const kind = model.get("_kind");
  const min = model.get("min"), max = model.get("max"), step = model.get("step");
  const n = Math.floor((max - min) / step + 1e-9) + 1;
  const grid = [];
  for (let k = 0; k < n; k++) grid.push(+(min + k * step).toFixed(10));
  // an end off the grid is a position too (ipywidgets' slider reaches it)
  if (max - grid[grid.length - 1] > 1e-9 * Math.max(1, Math.abs(max))) grid.push(max);
  if (kind === "int") return grid.map(Math.round);
  if (kind === "log") {
    const base = model.get("base");
    return grid.map((e, k) => (k === 0 ? base ** min : k === grid.length - 1 ? base ** max : +(base ** e).toPrecision(12)));
  }
  return grid;
}

// the read-out formats the panels use (Python's format spec and d3's agree on these)
function format(value, spec) {
  const fixed = /^\.(\d+)f$/.exec(spec || "");
  if (fixed) return value.toFixed(+fixed[1]);
  const general = /^\.(\d+)g$/.exec(spec || "");
  if (general) return String(+value.toPrecision(+general[1]));
  if (spec === "d") return String(Math.round(value));
  return String(value);
}

function nearest(values, value) {
  let best = 0;
  for (let k = 1; k < values.length; k++) {
    if (Math.abs(values[k] - value) < Math.abs(values[best] - value)) best = k;
  }
  return best;
}

function render({ model, el }) {
  const id = `ppdm-slider-${Math.random().toString(36).slice(2)}`;
  el.classList.add("widget-inline-hbox", "ppdm-slider");
  const label = document.createElement("label");
  label.className = "widget-label ppdm-slider-label";
  label.htmlFor = id;
  const input = document.createElement("input");
  input.type = "range";
  input.id = id;
  // JupyterLab's and JupyterLite's command-mode shortcuts (Lumino) would take the arrow keys,
  // Home and End from a focused range input; Lumino skips an element with this attribute
  input.setAttribute("data-lm-suppress-shortcuts", "true");
  const readout = document.createElement("output");
  readout.className = "widget-readout ppdm-slider-readout";
  readout.htmlFor.add(id);
  el.append(label, input, readout);
  let values = [];
  const indexed = () => model.get("_kind") === "log";
  // the position the input is at (an index into values)
  function position() {
    if (indexed()) return +input.value;
    const k = Math.round((parseFloat(input.value) - model.get("min")) / model.get("step"));
    return Math.min(Math.max(k, 0), values.length - 1);
  }

  const text = (value) => format(value, model.get("readout_format"));
  const valueText = (value) => [text(value), model.get("unit")].filter(Boolean).join(" ");
  function show(value) {
    readout.textContent = text(value);
    input.setAttribute("aria-valuetext", valueText(value));
  }
  function fromModel() {
    values = positions(model);
    const at = nearest(values, model.get("value"));
    if (indexed()) {
      input.min = "0";
      input.max = String(values.length - 1);
      input.step = "1";
      input.value = String(at);
    } else {
      input.min = String(values[0]);
      input.max = String(values[values.length - 1]);
      input.step = String(model.get("step"));
      input.value = String(values[at]);
    }
    show(model.get("value"));
  }
  function describe() {
    const description = model.get("description") || "";
    label.textContent = description;
    label.style.display = description ? "" : "none";
    input.setAttribute("aria-label", model.get("tooltip") || description);
    const width = model.get("_label_width");
    label.style.width = width || "";
    readout.style.display = model.get("readout") ? "" : "none";
    input.disabled = !!model.get("disabled");
  }
  function commit() {
    const value = values[position()];
    if (value !== model.get("value")) {
      model.set("value", value);
      model.save_changes();
    }
  }
  const onInput = () => {
    show(values[position()]);
    if (model.get("continuous_update")) commit();
  };
  input.addEventListener("input", onInput);
  input.addEventListener("change", commit);
  const events = ["change:value", "change:min", "change:max", "change:step", "change:base",
                  "change:readout_format", "change:unit"];
  const looks = ["change:description", "change:tooltip", "change:_label_width", "change:readout",
                 "change:disabled"];
  for (const e of events) model.on(e, fromModel);
  for (const e of looks) model.on(e, describe);
  describe();
  fromModel();
  return () => {
    for (const e of events) model.off(e, fromModel);
    for (const e of looks) model.off(e, describe);
  };
}

export default { render };

// The view of the panels' drop-downs, multiple selections and check boxes
// (ppdm_edu/widgets/_slider.py: NamedDropdown, NamedSelectMultiple, NamedCheckbox): the native
// <select>, <select multiple> or <input type="checkbox"> that ipywidgets draws too, named by the
// control's tooltip (aria-label: its label, then what it means) where ipywidgets' is named by
// its short label alone. The classes are ipywidgets' own, so the controls look as before.

function render({ model, el }) {
  const kind = model.get("_kind");
  const id = `ppdm-choice-${Math.random().toString(36).slice(2)}`;
  el.classList.add("widget-inline-hbox", kind === "checkbox" ? "widget-checkbox"
    : kind === "multiple" ? "widget-select-multiple" : "widget-dropdown");
  const label = document.createElement("label");
  label.className = "widget-label";
  label.htmlFor = id;
  let input;
  if (kind === "checkbox") {
    input = document.createElement("input");
    input.type = "checkbox";
    const text = document.createElement("span");
    label.className = "widget-label-basic";
    label.append(input, text);
    el.append(label);
    label.text = text;
  } else {
    input = document.createElement("select");
    input.multiple = kind === "multiple";
    el.append(label, input);
  }
  input.id = id;

  function describe() {
    const description = model.get("description") || "";
    (label.text || label).textContent = description;
    if (!label.text) {
      label.style.display = description ? "" : "none";
      label.style.width = model.get("_label_width") || "";
    }
    input.setAttribute("aria-label", model.get("tooltip") || description);
    input.disabled = !!model.get("disabled");
  }
  function options() {
    if (kind === "checkbox") return;
    input.replaceChildren(...(model.get("_options_labels") || []).map((text, k) => {
      const option = document.createElement("option");
      option.value = String(k);
      option.textContent = text;
      return option;
    }));
    if (kind === "multiple") input.size = model.get("rows") || input.size;
    chosen();
  }
  function chosen() {
    if (kind === "checkbox") {
      input.checked = !!model.get("value");
      return;
    }
    const index = model.get("index");
    const picked = new Set(kind === "multiple" ? index || [] : index === null ? [] : [index]);
    [...input.options].forEach((option, k) => { option.selected = picked.has(k); });
  }
  input.addEventListener("change", () => {
    if (kind === "checkbox") {
      model.set("value", input.checked);
    } else if (kind === "multiple") {
      model.set("index", [...input.selectedOptions].map((o) => +o.value));
    } else {
      model.set("index", input.selectedIndex < 0 ? null : input.selectedIndex);
    }
    model.save_changes();
  });
  const looks = ["change:description", "change:tooltip", "change:_label_width", "change:disabled"];
  const lists = ["change:_options_labels", "change:rows"];
  const values = ["change:index", "change:value"];
  for (const e of looks) model.on(e, describe);
  for (const e of lists) model.on(e, options);
  for (const e of values) model.on(e, chosen);
  describe();
  options();
  chosen();
  return () => {
    for (const e of looks) model.off(e, describe);
    for (const e of lists) model.off(e, options);
    for (const e of values) model.off(e, chosen);
  };
}

export default { render };

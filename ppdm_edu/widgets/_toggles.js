// The view of the panels' toggle buttons (ppdm_edu/widgets/_slider.py: NamedToggleButtons): a
// group named by the control's meaning (role="group", aria-label: its tooltip), one native
// <button> per option with aria-pressed, so a screen reader says "method, reconstruction
// algorithm ..., bayes, toggle button, pressed" where ipywidgets' own buttons say only "bayes,
// button". The classes are ipywidgets' own, so the buttons look as before.

function render({ model, el }) {
  el.classList.add("widget-inline-hbox", "widget-toggle-buttons", "ppdm-toggles");
  const label = document.createElement("label");
  label.className = "widget-label";
  const group = document.createElement("div");
  group.className = "widget-toggle-button-group";
  group.setAttribute("role", "group");
  el.append(label, group);
  let buttons = [];

  function describe() {
    const description = model.get("description") || "";
    label.textContent = description;
    label.style.display = description ? "" : "none";
    label.style.width = model.get("_label_width") || "";
    group.setAttribute("aria-label", model.get("tooltip") || description);
  }
  function pressed() {
    const index = model.get("index");
    buttons.forEach((button, k) => {
      const on = k === index;
      button.classList.toggle("mod-active", on);
      button.setAttribute("aria-pressed", on ? "true" : "false");
    });
  }
  function options() {
    group.replaceChildren();
    const tips = model.get("tooltips") || [];
    buttons = (model.get("_options_labels") || []).map((text, k) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "widget-toggle-button jupyter-button";
      button.textContent = text;
      if (tips[k]) button.title = tips[k];
      button.disabled = !!model.get("disabled");
      button.addEventListener("click", () => {
        if (model.get("index") !== k) {
          model.set("index", k);
          model.save_changes();
        }
      });
      group.append(button);
      return button;
    });
    pressed();
  }
  const looks = ["change:description", "change:tooltip", "change:_label_width"];
  const lists = ["change:_options_labels", "change:tooltips", "change:disabled"];
  for (const e of looks) model.on(e, describe);
  for (const e of lists) model.on(e, options);
  model.on("change:index", pressed);
  describe();
  options();
  return () => {
    for (const e of looks) model.off(e, describe);
    for (const e of lists) model.off(e, options);
    model.off("change:index", pressed);
  };
}

export default { render };

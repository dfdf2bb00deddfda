// The lil-gui parameter panel built from the welcome's table: sends `set` on change and shows the state's values.
import GUI from 'lil-gui';
import { INIT_NOTE, panelModel, readBySolver, valueToSend } from './panel_model.js';

export class ParameterPanel {
  /** onSet(name, value, revert): send the change; call revert() if the server refuses it. */
  constructor(container, { onSet, onLocalError }) {
    this.container = container;
    this.onSet = onSet;
    this.onLocalError = onLocalError;
    this.gui = null;
    this.controllers = new Map();
    this.values = {};
    this.stateValues = {};
    this.solver = null;
  }

  /** (Re)builds the panel for a parameter table and a role ('control' or 'watch'). */
  build(parameters, role) {
    if (this.gui) this.gui.destroy();
    this.controllers.clear();
    this.values = {};
    this.gui = new GUI({ container: this.container, title: 'Parameters', width: 340 });
    this.gui.domElement.dataset.testid = 'parameter-panel';
    const model = panelModel(parameters, role);
    let initFolder = null;
    for (const entry of model) {
      this.values[entry.name] = entry.name in this.stateValues ? this.stateValues[entry.name] : entry.defaultValue;
      let parent = this.gui;
      if (entry.group === 'init') {
        initFolder = initFolder || this.gui.addFolder(`Set when built (apply on reset / load scene)`);
        parent = initFolder;
      }
      const controller = this.addController(parent, entry);
      controller.domElement.dataset.testid = `param-${entry.name}`;
      controller.domElement.title = entry.tooltip;
      if (entry.group === 'init') controller.domElement.dataset.note = INIT_NOTE;
      controller.disable(entry.disabled);
      controller.onFinishChange((raw) => this.changed(entry, raw));
      this.controllers.set(entry.name, { controller, entry });
    }
    if (initFolder) initFolder.domElement.title = `Not live: ${INIT_NOTE}.`;
    this.showSolver(this.solver);
  }

  /** Shows only the parameters that the world's solver reads (all while it is unknown). */
  showSolver(solver) {
    this.solver = solver;
    for (const { controller, entry } of this.controllers.values()) controller.show(readBySolver(entry, solver));
  }

  addController(parent, entry) {
    if (entry.kind === 'number') return parent.add(this.values, entry.name, entry.min, entry.max, entry.step).name(entry.label);
    if (entry.kind === 'enum') return parent.add(this.values, entry.name, entry.choices).name(entry.label);
    return parent.add(this.values, entry.name).name(entry.label);
  }

  changed(entry, raw) {
    const checked = valueToSend(entry, raw);
    if (checked.error) {
      this.onLocalError({ code: 'bad_value', field: `values.${entry.name}`, message: checked.error });
      this.revert(entry.name);
      return;
    }
    this.onSet(entry.name, checked.value, () => this.revert(entry.name));
  }

  /** Shows the newest state's values, except in the field being edited. */
  setValues(values) {
    this.stateValues = { ...values };
    for (const [name, value] of Object.entries(values)) {
      const item = this.controllers.get(name);
      if (!item || item.controller.domElement.contains(document.activeElement)) continue;
      if (this.values[name] !== value) {
        this.values[name] = value;
        item.controller.updateDisplay();
      }
    }
  }

  /** Puts a refused change back to the state's value. */
  revert(name) {
    const item = this.controllers.get(name);
    if (!item || !(name in this.stateValues)) return;
    this.values[name] = this.stateValues[name];
    item.controller.updateDisplay();
  }
}

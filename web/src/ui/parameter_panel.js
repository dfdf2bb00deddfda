// The lil-gui parameter panel built from the welcome's table: live values are sent with `set`, build-time ones wait for a restart; bad input shows the field's error; wide ranges slide logarithmically, risky parts are marked.
import GUI from 'lil-gui';
import { INIT_NOTE, TERMS, humanName, panelModel, readBySolver, restartValues, termOf, termOn, valueToSend } from './panel_model.js';
import { el } from '../util/dom.js';
import { LogSlider, paintRisky } from './log_slider.js';
import { adaptiveOffWarning, riskyFrom } from './stable_region.js';

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const ERROR_SHOW_MS = 8000;

export class ParameterPanel {
  /**
   * onSet(name, value, revert): send a live change; call revert() if the server refuses it.
   * onPendingChange(count): build-time values edited but not applied yet (0 after a restart).
   */
  constructor(container, { onSet, onPendingChange = () => {} }) {
    this.container = container;
    this.onSet = onSet;
    this.onPendingChange = onPendingChange;
    this.gui = null;
    this.model = [];
    this.controllers = new Map();
    this.values = {};
    this.stateValues = {};
    this.pending = new Set(); // build-time names edited since the last build
    this.touched = new Set(); // names a person changed in this panel
    this.solver = null;
    this.parameters = null;
    this.role = null;
    this.fluids = []; // state.fluids: one folder each for the fluid-scoped parameters
    this.dimensions = 3; // state.dimensions: a 2D world's panel leaves out gravity_z
  }

  /** The world's dimensions (state.dimensions, 3 when absent): rebuilds the panel when they change. */
  setDimensions(dimensions) {
    const next = dimensions === 2 ? 2 : 3;
    const same = next === this.dimensions;
    this.dimensions = next;
    if (!same && this.parameters) this.build(this.parameters, this.role);
  }

  /** The world's fluids (state.fluids): rebuilds the panel when their names change. */
  setFluids(fluids) {
    const next = Array.isArray(fluids) ? fluids : [];
    const same = next.length === this.fluids.length && next.every((f, i) => f.name === this.fluids[i].name);
    this.fluids = next;
    if (!same && this.parameters) this.build(this.parameters, this.role);
  }

  /** (Re)builds the panel for a parameter table and a role ('control' or 'watch'): live ones first, then the build-time folder. */
  build(parameters, role) {
    if (this.gui) this.gui.destroy();
    this.parameters = parameters;
    this.role = role;
    this.controllers.clear();
    this.pending.clear();
    this.values = {};
    this.gui = new GUI({ container: this.container, title: 'Parameters', width: 340 });
    this.gui.domElement.dataset.testid = 'parameter-panel';
    this.model = panelModel(parameters, role, this.fluids, this.dimensions);
    const live = this.gui.addFolder('Live: change the running world');
    live.domElement.dataset.testid = 'group-live';
    const init = this.gui.addFolder('Set when built: apply with “Restart with these settings”');
    init.domElement.dataset.testid = 'group-init';
    init.domElement.title = `Build-time values are ${INIT_NOTE}.`;
    const fluidFolders = new Map(this.fluids.map((fluid) => {
      const folder = this.gui.addFolder(`Fluid: ${fluid.name}`);
      folder.domElement.dataset.testid = `group-fluid-${fluid.name}`;
      return [String(fluid.name), folder];
    }));
    // a folder per term (tension, trapped air, heat) in the live group, for its choice and its own parameters
    this.termFolders = new Map();
    for (const term of TERMS) {
      if (!this.model.some((e) => !e.fluid && e.group === 'live' && e.name === term.choice)) continue;
      const folder = live.addFolder(term.label);
      folder.domElement.dataset.testid = `group-term-${term.choice}`;
      this.termFolders.set(term.choice, { folder, term });
    }
    for (const entry of this.model) {
      this.values[entry.name] = entry.name in this.stateValues ? this.stateValues[entry.name] : entry.defaultValue;
      const term = termOf(entry);
      const termFolder = !entry.fluid && entry.group === 'live' && term ? this.termFolders.get(term.choice)?.folder : null;
      const folder = termFolder ?? (entry.fluid ? fluidFolders.get(entry.fluid) : entry.group === 'init' ? init : live);
      const controller = this.addController(folder, entry);
      controller.domElement.dataset.testid = `param-${entry.name}`;
      controller.domElement.title = entry.tooltip;
      controller.disable(entry.disabled);
      controller.onFinishChange((value) => this.changed(entry, value));
      const error = el('div', { className: 'field-error', testid: `param-error-${entry.name}`, role: 'alert', hidden: true });
      controller.domElement.after(error); // its own line under the field
      const item = { controller, entry, error, timer: null, slider: null };
      this.controllers.set(entry.name, item);
      if (entry.scale) item.slider = this.addLogSlider(entry, controller);
      if (entry.kind === 'number') this.checkTyping(entry, controller);
    }
    this.showSolver(this.solver);
    if (role !== 'control') { // watchers: a compact panel, the values one click away, nothing to edit at build
      init.hide();
      this.gui.close();
    }
    this.onPendingChange(0);
  }

  /** Shows only the parameters that the world's solver reads (all while it is unknown), and of the
   *  terms only those that are on. */
  showSolver(solver) {
    this.solver = solver;
    this.showTerms();
    this.markRisky();
  }

  /**
   * A term whose choice is "none" (tension, trapped air, heat): its folder collapsed and titled
   * "Tension: none", its fluids' parameters hidden; one that is on: its folder open. Folders are
   * opened or closed only when the choice changes, so a person's own opening stays.
   */
  showTerms() {
    for (const { controller, entry } of this.controllers.values()) {
      const term = termOf(entry);
      const hiddenByTerm = entry.fluid && term && !termOn(term, this.values);
      controller.show(readBySolver(entry, this.solver) && !hiddenByTerm);
    }
    for (const { folder, term } of this.termFolders?.values() ?? []) {
      const on = termOn(term, this.values);
      folder.title(on ? `${term.label}: ${this.values[term.choice]}` : `${term.label}: none`);
      if (folder.domElement.dataset.on !== String(on)) {
        if (on) folder.open();
        else folder.close();
        folder.domElement.dataset.on = String(on);
      }
    }
  }

  addController(parent, entry) {
    if (entry.kind === 'number' && entry.scale) return parent.add(this.values, entry.name).name(entry.label); // its slider: addLogSlider
    if (entry.kind === 'number') return parent.add(this.values, entry.name, entry.min, entry.max, entry.step).name(entry.label);
    if (entry.kind === 'enum') return parent.add(this.values, entry.name, entry.choices).name(entry.label);
    return parent.add(this.values, entry.name).name(entry.label);
  }

  /** The log slider of a wide range: the field follows a drag, the release is a change like a typed value. */
  addLogSlider(entry, controller) {
    const slider = new LogSlider(controller, entry.scale, {
      onSlide: (value) => {
        this.values[entry.name] = value;
        controller.updateDisplay();
      },
      onRelease: (value) => {
        this.values[entry.name] = value;
        controller.updateDisplay();
        this.changed(entry, value);
      },
    });
    slider.show(this.values[entry.name]);
    slider.disabled = entry.disabled;
    controller.onChange((value) => slider.show(value)); // a typed value moves the knob
    return slider;
  }

  /** Shows a field's value (after a state or a refusal): its text and its log slider's knob. */
  display(item) {
    item.controller.updateDisplay();
    item.slider?.show(this.values[item.entry.name]);
  }

  /** Marks each slider's risky part for the values shown now (stable_region.js); on every state. */
  markRisky() {
    for (const { controller, entry, slider } of this.controllers.values()) {
      if (entry.kind !== 'number') continue;
      const risk = riskyFrom(entry.name, this.values, this.solver);
      if (slider) slider.markRisky(risk);
      else if (controller.$slider) paintRisky(controller.$slider, risk ? (risk.from - entry.min) / (entry.max - entry.min) : null, risk ? risk.why : '');
      controller.domElement.classList.toggle('risky', Boolean(risk) && this.values[entry.name] > risk.from);
    }
  }

  /**
   * lil-gui applies every keystroke clamped to the range (1e400 would become the maximum). The
   * typed text is kept from it and checked once, when the field is left or Enter is pressed:
   * a valid number is set, anything else shows the field's error and changes nothing.
   */
  checkTyping(entry, controller) {
    const input = controller.domElement.querySelector('input:not([type=range])');
    if (!input) return;
    const root = controller.domElement;
    root.addEventListener('input', (event) => {
      if (event.target === input) event.stopPropagation();
    }, true);
    root.addEventListener('blur', (event) => {
      if (event.target !== input) return;
      const checked = valueToSend(entry, input.value);
      if (checked.error) this.showError(entry.name, checked.error);
      else controller.setValue(checked.value);
    }, true);
  }

  changed(entry, value) {
    const checked = valueToSend(entry, value);
    if (checked.error) {
      this.showError(entry.name, checked.error);
      this.revert(entry.name);
      return;
    }
    this.clearError(entry.name);
    this.touched.add(entry.name);
    if (entry.group === 'init') {
      if (checked.value === this.stateValues[entry.name]) this.pending.delete(entry.name);
      else this.pending.add(entry.name);
      this.markPending(entry.name);
      this.onPendingChange(this.pending.size);
      return;
    }
    this.onSet(entry.name, checked.value, () => this.revert(entry.name));
    if (entry.name === 'adaptive_time_step' && checked.value === false) this.warnFixedStep();
  }

  /** Adaptive time step turned off: a warning under it when the fixed step is above the acoustic limit (it is sent all the same). */
  warnFixedStep() {
    const labels = Object.fromEntries((this.parameters ?? []).map((p) => [p.name, humanName(p)]));
    const warning = adaptiveOffWarning(this.values, this.solver, labels);
    if (!warning) return;
    this.showError('adaptive_time_step', `⚠ ${warning}`);
    this.controllers.get('adaptive_time_step')?.error.classList.add('field-warning');
  }

  /** The server refused a value: its message under the field, in the panel's words (the label, not values.NAME). */
  showServerError(name, error) {
    const item = this.controllers.get(name);
    if (!item) return false;
    const text = String(error.message || '').replace(new RegExp(`^(values\\.)?${escapeRegExp(name)}:\\s*`), '');
    return this.showError(name, `${item.entry.title}: ${text}`);
  }

  /** Shows a field's error under it (the server's or the panel's own), for a few seconds. */
  showError(name, message) {
    const item = this.controllers.get(name);
    if (!item) return false;
    item.error.textContent = message;
    item.error.hidden = false;
    item.controller.domElement.classList.add('has-error');
    clearTimeout(item.timer);
    item.timer = setTimeout(() => this.clearError(name), ERROR_SHOW_MS);
    return true;
  }

  clearError(name) {
    const item = this.controllers.get(name);
    if (!item) return;
    clearTimeout(item.timer);
    item.error.hidden = true;
    item.error.classList.remove('field-warning');
    item.controller.domElement.classList.remove('has-error');
  }

  markPending(name) {
    const item = this.controllers.get(name);
    if (item) item.controller.domElement.classList.toggle('pending', this.pending.has(name));
  }

  /** What “Restart with these settings” sends (panel values for the world's solver). */
  restartValues() {
    return restartValues(this.model, this.values, this.solver, this.touched);
  }

  /** Forgets edited build-time values: the world was rebuilt (or reset to its scene). */
  clearPending() {
    const names = [...this.pending];
    this.pending.clear();
    for (const name of names) this.markPending(name);
    this.onPendingChange(0);
    this.setValues(this.stateValues);
  }

  /** Shows the newest state's values, except in the field being edited and in edited build-time fields. */
  setValues(values) {
    this.stateValues = { ...values };
    for (const [name, value] of Object.entries(values)) {
      const item = this.controllers.get(name);
      if (!item || this.pending.has(name) || item.controller.domElement.contains(document.activeElement)) continue;
      if (this.values[name] !== value) {
        this.values[name] = value;
        this.display(item);
      }
    }
    this.showTerms();
    this.markRisky();
  }

  /** Puts a refused change back to the state's value. */
  revert(name) {
    const item = this.controllers.get(name);
    if (!item || !(name in this.stateValues)) return;
    this.values[name] = this.stateValues[name];
    this.display(item);
  }
}

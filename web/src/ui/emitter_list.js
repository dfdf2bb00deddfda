// The emitter list: rate, speed, radius and temperature of each emitter as number fields (emitter_update, checked first), the fluid it emits, and a remove button.
import { el, setOptions } from '../util/dom.js';
import { checkNumber } from './field_check.js';
import { dropMissingRows, showRowError } from './keyed_rows.js';


const FIELDS = [
  { name: 'rate', label: 'rate', unit: '1/s', min: 0, max: 1e7, step: 1 },
  { name: 'speed', label: 'speed', unit: 'm/s', min: 0, max: 100, step: 0.1 },
  { name: 'radius', label: 'radius', unit: 'm', min: 0.001, max: 10, step: 0.001 },
  { name: 'temperature', label: 'temp.', unit: 'K', min: 1, max: 5000, step: 1 },
];

export class EmitterList {
  /** actions: update(id, {field: value}), remove(id) */
  constructor(element, actions) {
    this.element = element;
    this.actions = actions;
    this.rows = new Map(); // id -> {row, inputs}
    this.canControl = false;
    this.empty = el('div', { className: 'empty', text: 'No emitters. Use "+ Emitter" or "Place emitter…".' });
    element.replaceChildren(el('div', { className: 'title', text: 'Emitters' }), this.empty);
  }

  /** fluids: state.fluids, the choices of each emitter's fluid picker. */
  update(emitters = [], canControl, fluids = []) {
    this.canControl = canControl;
    const choices = fluids.map((f, i) => ({ value: i, label: String(f?.name ?? `fluid ${i}`) }));
    const seen = new Set();
    for (const emitter of emitters) {
      seen.add(emitter.id);
      if (!this.rows.has(emitter.id)) this.addRow(emitter.id);
      const { inputs, remove, shown, fluid } = this.rows.get(emitter.id);
      setOptions(fluid, choices.length ? choices : [{ value: 0, label: 'fluid 0' }], document.activeElement === fluid ? undefined : emitter.fluid ?? 0);
      fluid.disabled = !canControl || choices.length < 2;
      for (const field of FIELDS) {
        const input = inputs[field.name];
        shown[field.name] = Number.isFinite(emitter[field.name]) ? String(Number(emitter[field.name].toPrecision(4))) : '';
        if (document.activeElement !== input) input.value = shown[field.name];
        input.disabled = !canControl;
      }
      remove.disabled = !canControl;
    }
    dropMissingRows(this.rows, seen);
    this.empty.hidden = this.rows.size > 0;
    this.empty.textContent = canControl ? 'No emitters. Use "+ Emitter" or "Place emitter…".' : 'No emitters.';
  }

  /** Shows an error under the emitter's row (the field's own check, or the server's refusal). */
  showError(id, message) {
    const row = this.rows.get(id);
    if (row) showRowError(row, message);
  }

  addRow(id) {
    const inputs = {};
    const shown = {};
    const cells = FIELDS.map((field) => {
      const input = el('input', {
        type: 'text', inputmode: 'decimal', title: `${field.label} (${field.unit}), ${field.min} to ${field.max}`, 'data-field': field.name,
        onchange: () => {
          const checked = checkNumber(input.value, { label: `Emitter #${id} ${field.label}`, min: field.min, max: field.max, unit: field.unit });
          if (checked.error) {
            this.showError(id, checked.error);
            input.value = shown[field.name] ?? '';
            return;
          }
          this.rows.get(id).error.hidden = true;
          this.actions.update(id, { [field.name]: checked.value });
        },
      });
      inputs[field.name] = input;
      return el('label', {}, [el('span', { text: `${field.label}` }), input, el('small', { text: field.unit })]);
    });
    const fluid = el('select', {
      'data-field': 'fluid', title: 'The fluid it emits (its particles keep the emitter’s temperature)',
      onchange: () => this.actions.update(id, { fluid: Number(fluid.value) }),
    });
    const remove = el('button', { type: 'button', text: '✕', title: 'Remove this emitter', className: 'remove', onclick: () => this.actions.remove(id) });
    const error = el('div', { className: 'field-error', testid: `emitter-error-${id}`, role: 'alert', hidden: true });
    const row = el('div', { className: 'emitter', 'data-emitter-id': String(id) }, [
      el('b', { text: `#${id}` }), ...cells, remove, el('label', { className: 'fluid' }, [el('span', { text: 'fluid' }), fluid]), error,
    ]);
    this.element.append(row);
    this.rows.set(id, { row, inputs, remove, shown, error, fluid, timer: null });
  }
}

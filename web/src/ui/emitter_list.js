// The emitter list: rate, speed and radius of each emitter as number fields (emitter_update) and a remove button.
import { el } from '../util/dom.js';

const FIELDS = [
  { name: 'rate', label: 'rate', unit: '1/s', min: 0, max: 1e7, step: 1 },
  { name: 'speed', label: 'speed', unit: 'm/s', min: 0, max: 100, step: 0.1 },
  { name: 'radius', label: 'radius', unit: 'm', min: 0.001, max: 10, step: 0.001 },
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

  update(emitters = [], canControl) {
    this.canControl = canControl;
    const seen = new Set();
    for (const emitter of emitters) {
      seen.add(emitter.id);
      if (!this.rows.has(emitter.id)) this.addRow(emitter.id);
      const { inputs, remove } = this.rows.get(emitter.id);
      for (const field of FIELDS) {
        const input = inputs[field.name];
        if (document.activeElement !== input) input.value = String(Number(emitter[field.name].toPrecision(4)));
        input.disabled = !canControl;
      }
      remove.disabled = !canControl;
    }
    for (const [id, { row }] of this.rows) {
      if (!seen.has(id)) {
        row.remove();
        this.rows.delete(id);
      }
    }
    this.empty.hidden = this.rows.size > 0;
    this.empty.textContent = canControl ? 'No emitters. Use "+ Emitter" or "Place emitter…".' : 'No emitters.';
  }

  addRow(id) {
    const inputs = {};
    const cells = FIELDS.map((field) => {
      const input = el('input', {
        type: 'number', min: String(field.min), max: String(field.max), step: String(field.step),
        title: `${field.label} (${field.unit})`, 'data-field': field.name,
        onchange: () => {
          const value = Number(input.value);
          if (input.value !== '' && Number.isFinite(value)) this.actions.update(id, { [field.name]: value });
        },
      });
      inputs[field.name] = input;
      return el('label', {}, [el('span', { text: `${field.label}` }), input, el('small', { text: field.unit })]);
    });
    const remove = el('button', { type: 'button', text: '✕', title: 'Remove this emitter', className: 'remove', onclick: () => this.actions.remove(id) });
    const row = el('div', { className: 'emitter', 'data-emitter-id': String(id) }, [el('b', { text: `#${id}` }), ...cells, remove]);
    this.element.append(row);
    this.rows.set(id, { row, inputs, remove });
  }
}

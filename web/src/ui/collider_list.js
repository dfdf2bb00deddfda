// The collider list: the world's movable spheres and boxes with a temperature field (collider_update), a box's rotation (collider_move), a remove button, and buttons to add a sphere or a box.
import { el } from '../util/dom.js';
import { checkNumber } from './field_check.js';
import { dropMissingRows, showRowError } from './keyed_rows.js';

const TEMPERATURE = { label: 'temperature', unit: 'K', min: 1, max: 5000 };
const ROTATION = { min: -3600, max: 3600, unit: '°' };

/**
 * A box's new orientation from its rotation fields (degrees about x, y, z; a 2D world turns about z
 * only): {rotation} or {error} naming the field.
 */
export function rotationChange(texts, id) {
  const rotation = [];
  for (let k = 0; k < 3; k++) {
    const text = String(texts[k] ?? '').trim();
    const checked = checkNumber(text === '' ? '0' : text, { label: `Collider #${id} rotation about ${'xyz'[k]}`, min: ROTATION.min, max: ROTATION.max, unit: ROTATION.unit });
    if (checked.error) return { error: checked.error };
    rotation.push(checked.value);
  }
  return { rotation };
}

/** A collider that fits the domain: over the floor, a tenth of its smallest extent in size; spheres left of the middle, boxes right. */
export function defaultCollider(domain, shape) {
  const size = [0, 1, 2].map((i) => domain.max[i] - domain.min[i]);
  const r = 0.1 * Math.min(...size.filter((s) => s > 0)); // a 2D world's z has no extent
  const across = shape === 'sphere' ? 0.35 : 0.65;
  const position = [domain.min[0] + across * size[0], domain.min[1] + 0.6 * size[1], 0.5 * (domain.min[2] + domain.max[2])];
  return shape === 'sphere' ? { shape, position, radius: r } : { shape, position, half_extents: [r, r, r] };
}

function describe(collider) {
  const p = collider.position.map((x) => x.toFixed(2)).join(', ');
  if (collider.shape === 'sphere') return `sphere r ${collider.radius.toFixed(3)} m at (${p})`;
  const turned = collider.rotation && collider.rotation.some((d) => Math.abs(d) > 0.05)
    ? `, turned ${collider.rotation.map((d) => `${d.toFixed(0)}°`).join(' ')}` : '';
  return `box ${collider.half_extents.map((x) => (2 * x).toFixed(2)).join('×')} m at (${p})${turned}`;
}

/** The temperature a collider heats or cools at, as the field shows it: empty while it insulates. */
export function shownTemperature(collider) {
  return collider.heat_transfer > 0 && Number.isFinite(collider.temperature) ? String(Number(collider.temperature.toPrecision(5))) : '';
}

/**
 * What editing the temperature field asks of the server: a number heats or cools at it
 * ({temperature}), an empty field makes the collider insulating ({heat_transfer: 0}); {error} when
 * the text is no temperature.
 */
export function temperatureChange(text) {
  if (String(text).trim() === '') return { changes: { heat_transfer: 0 } };
  const checked = checkNumber(text, { label: 'Temperature', min: TEMPERATURE.min, max: TEMPERATURE.max, unit: TEMPERATURE.unit });
  return checked.error ? { error: checked.error } : { changes: { temperature: checked.value } };
}

export class ColliderList {
  /** actions: add(shape), update(id, changes), rotate(id, rotation), remove(id) */
  constructor(element, actions) {
    this.element = element;
    this.items = el('div', { className: 'items' });
    this.empty = el('div', { className: 'empty' });
    this.addSphere = el('button', { type: 'button', testid: 'btn-add-sphere', text: '+ Sphere', title: 'Add a sphere to drag through the fluid', onclick: () => actions.add('sphere') });
    this.addBox = el('button', { type: 'button', testid: 'btn-add-box', text: '+ Box', title: 'Add a box obstacle (drag it to move it)', onclick: () => actions.add('box') });
    this.actions = actions;
    this.rows = new Map(); // id -> {row, text, input, remove, error, shown, timer}
    element.replaceChildren(el('div', { className: 'title' }, [el('span', { text: 'Colliders' }), el('span', { className: 'add' }, [this.addSphere, this.addBox])]), this.items);
    this.items.append(this.empty);
  }

  update(colliders = [], canControl, dimensions = 3) {
    this.addSphere.disabled = !canControl;
    this.addBox.disabled = !canControl;
    const seen = new Set();
    for (const collider of colliders) {
      seen.add(collider.id);
      if (!this.rows.has(collider.id)) this.addRow(collider.id);
      const row = this.rows.get(collider.id);
      this.showRotation(row, collider, canControl, dimensions);
      row.text.textContent = `#${collider.id} ${describe(collider)}`;
      row.shown = shownTemperature(collider);
      if (document.activeElement !== row.input) row.input.value = row.shown;
      row.input.disabled = !canControl;
      row.remove.disabled = !canControl;
    }
    dropMissingRows(this.rows, seen);
    this.empty.hidden = this.rows.size > 0;
    this.empty.textContent = canControl ? 'None. Drag a collider to move it.' : 'None.';
  }

  /** A box's rotation fields (degrees; in 2D only about z), kept while one is being typed in. */
  showRotation(row, collider, canControl, dimensions) {
    row.rotation.hidden = collider.shape !== 'box';
    if (collider.shape !== 'box') return;
    const angles = collider.rotation ?? [0, 0, 0];
    row.angles.forEach((input, k) => {
      input.closest('label').hidden = dimensions === 2 && k < 2;
      if (document.activeElement !== input) input.value = String(Number((angles[k] ?? 0).toFixed(1)));
      input.disabled = !canControl;
    });
  }

  /** Shows an error under the collider's row (the field's own check, or the server's refusal). */
  showError(id, message) {
    const row = this.rows.get(id);
    if (row) showRowError(row, message);
  }

  addRow(id) {
    const input = el('input', {
      type: 'text', inputmode: 'decimal', placeholder: 'off', 'data-field': 'temperature',
      title: `The temperature it heats or cools the fluid at (${TEMPERATURE.unit}, ${TEMPERATURE.min} to ${TEMPERATURE.max}; with heat conduction on); empty: it insulates`,
      onchange: () => {
        const asked = temperatureChange(input.value);
        const row = this.rows.get(id);
        if (asked.error) {
          this.showError(id, `Collider #${id}: ${asked.error}`);
          input.value = row.shown;
          return;
        }
        row.error.hidden = true;
        this.actions.update(id, asked.changes);
      },
    });
    const angles = [0, 1, 2].map((k) => el('input', {
      type: 'text', inputmode: 'decimal', 'data-field': `rotation-${'xyz'[k]}`,
      title: `Turn the box about ${'xyz'[k]} (degrees; applied about x, then y, then z)`,
      onchange: () => {
        const asked = rotationChange(angles.map((a) => a.value), id);
        if (asked.error) {
          this.showError(id, asked.error);
          return;
        }
        this.rows.get(id).error.hidden = true;
        this.actions.rotate(id, asked.rotation);
      },
    }));
    const rotation = el('div', { className: 'rotation', hidden: true }, [
      el('span', { text: 'turned (°)' }),
      ...angles.map((input, k) => el('label', {}, [el('span', { text: 'xyz'[k] }), input])),
    ]);
    const text = el('span', {});
    const remove = el('button', { type: 'button', className: 'remove', text: '✕', title: 'Remove this collider', onclick: () => this.actions.remove(id) });
    const error = el('div', { className: 'field-error', testid: `collider-error-${id}`, role: 'alert', hidden: true });
    const row = el('div', { className: 'collider', 'data-collider-id': String(id) }, [
      text, el('label', {}, [el('span', { text: 'temp.' }), input, el('small', { text: TEMPERATURE.unit })]), remove, rotation, error,
    ]);
    this.items.append(row);
    this.rows.set(id, { row, text, input, remove, error, rotation, angles, shown: '', timer: null });
  }
}

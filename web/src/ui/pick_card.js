// The picked particle's card: id, fluid, position, velocity, speed, density and temperature from the `pick` ack.
import { el, formatNumber } from '../util/dom.js';

const vec = (v, unit) => (Array.isArray(v) && v.length === 3 ? `(${v.map((x) => formatNumber(x)).join(', ')}) ${unit}` : '–');
const num = (x, unit) => (typeof x === 'number' && Number.isFinite(x) ? `${formatNumber(x, 4)} ${unit}` : '–');

/** The fluid's name from the world's fluids (state.fluids), or its index when they do not name it. */
function fluidText(index, fluids) {
  const fluid = Array.isArray(fluids) ? fluids[index] : undefined;
  return fluid && fluid.name ? String(fluid.name) : String(index);
}

/** The card's rows for applied.particle of a pick ack and the world's fluids: [field, label, text]. */
export function pickRows(particle, fluids = []) {
  return [
    ['id', 'id', String(particle.id)],
    ['fluid', 'fluid', fluidText(particle.fluid, fluids)],
    ['position', 'position', vec(particle.position, 'm')],
    ['velocity', 'velocity', vec(particle.velocity, 'm/s')],
    ['speed', 'speed', num(particle.speed, 'm/s')],
    ['density', 'density', num(particle.density, 'kg/m³')],
    ['temperature', 'temperature', particle.temperature === null || particle.temperature === undefined ? 'none in this world' : num(particle.temperature, 'K')],
  ];
}

export class PickCard {
  /** onClose: called when the card's ✕ closes it. */
  constructor(host, { onClose = () => {} } = {}) {
    this.title = el('strong', { text: 'Particle' });
    this.body = el('div', { className: 'pick-body' });
    const close = el('button', { type: 'button', className: 'close', text: '✕', title: 'Close (Esc)', onclick: () => { this.hide(); onClose(); } });
    this.element = el('div', { className: 'pick-card', testid: 'pick-card', hidden: true }, [el('div', { className: 'head' }, [this.title, close]), this.body]);
    host.append(this.element);
  }

  get visible() {
    return !this.element.hidden;
  }

  /** While the request is on its way. */
  pending(position) {
    this.show('Particle', [el('div', { className: 'muted', text: `picking near ${vec(position, 'm')}…` })], 'pending');
  }

  /** applied.particle of the ack: an object, or null when the world has no fluid particle; fluids: state.fluids. */
  particle(particle, time = null, fluids = []) {
    if (!particle) {
      this.show('Particle', [el('div', { className: 'muted', text: 'no fluid particle in this world' })], 'none');
      return;
    }
    const rows = pickRows(particle, fluids).map(([field, label, text]) => el('div', { className: 'row' }, [
      el('span', { className: 'label', text: label }), el('span', { testid: `pick-${field}`, text }),
    ]));
    if (time !== null) rows.push(el('div', { className: 'muted', text: `picked at t = ${formatNumber(time, 4)} s` }));
    this.show(`Particle ${particle.id}`, rows, 'ok');
  }

  failed(error) {
    this.show('Particle', [el('div', { className: 'error', testid: 'pick-error', text: error.message })], 'error');
  }

  show(title, children, state) {
    this.title.textContent = title;
    this.body.replaceChildren(...children);
    this.element.dataset.state = state;
    this.element.hidden = false;
  }

  hide() {
    this.element.hidden = true;
  }
}

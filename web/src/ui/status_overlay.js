// The status overlay: connection, world, render fps, sim steps/s and ms per step, particles, received bytes/s, frame age.
import { el, formatNumber } from '../util/dom.js';

const ROWS = [
  ['connection', 'connection', 'connection-state'],
  ['world', 'world', null],
  ['particles', 'particles', 'particle-count'],
  ['render', 'render', 'render-fps'],
  ['sim', 'sim', 'sim-rate'],
  ['network', 'received', 'bytes-per-second'],
  ['age', 'frame age', 'frame-age'],
];

function formatBytes(perSecond) {
  if (perSecond >= 1e6) return `${(perSecond / 1e6).toFixed(2)} MB/s`;
  if (perSecond >= 1e3) return `${(perSecond / 1e3).toFixed(1)} kB/s`;
  return `${Math.round(perSecond)} B/s`;
}

export class StatusOverlay {
  constructor(element) {
    this.element = element;
    this.cells = {};
    const rows = ROWS.map(([key, label, testid]) => {
      this.cells[key] = el('span', { className: 'value', testid });
      return el('div', { className: 'row' }, [el('span', { className: 'label', text: label }), this.cells[key]]);
    });
    element.replaceChildren(...rows);
  }

  /**
   * s: {connection, retryInMs, role, world, worldName, paused, particles, renderFps, stepsPerS,
   * stepMs, bytesPerSecond, tier, bits, frameAgeMs, time}.
   */
  update(s) {
    const c = this.cells;
    c.connection.textContent = s.connection;
    c.connection.dataset.state = s.connection;
    c.connection.title = s.retryInMs !== null ? `reconnecting in ${(s.retryInMs / 1000).toFixed(1)} s` : '';
    c.world.textContent = s.world === null ? '–'
      : `${s.world} ${s.worldName || ''}${s.paused ? ' (paused)' : ''}${s.role ? ` · ${s.role}` : ''}`;
    c.particles.textContent = String(s.particles);
    c.render.textContent = `${s.renderFps < 10 ? s.renderFps.toFixed(1) : Math.round(s.renderFps)} fps`;
    c.sim.textContent = s.stepsPerS === null ? '–'
      : `${formatNumber(s.stepsPerS)} steps/s · ${formatNumber(s.stepMs)} ms/step · t ${s.time.toFixed(2)} s`;
    c.network.textContent = `${formatBytes(s.bytesPerSecond)}${s.tier ? ` · tier ${s.tier} · ${s.bits} bit` : ''}`;
    c.age.textContent = s.frameAgeMs === null ? '–' : `${Math.round(s.frameAgeMs)} ms`;
  }
}

// The status overlay: connection (with the retry countdown), world, where it steps (backend and device), particles, render fps, real-time factor, sim steps/s, the time step and what bounds it, received bytes/s, frame age.
import { el, formatNumber } from '../util/dom.js';

const ROWS = [
  ['connection', 'connection', 'connection-state'],
  ['world', 'world', null],
  ['backend', 'steps on', 'backend'],
  ['particles', 'particles', 'particle-count'],
  ['render', 'render', 'render-fps'],
  ['realtime', 'speed', 'realtime-factor'],
  ['sim', 'sim', 'sim-rate'],
  ['dt', 'time step', 'time-step'],
  ['network', 'received', 'bytes-per-second'],
  ['age', 'frame age', 'frame-age'],
];

/** "0.98× real time", "12× faster than real time", "paused"; – when unknown. */
export function formatRealtime(factor, paused) {
  if (paused) return 'paused';
  if (factor === null || factor === undefined || !Number.isFinite(factor)) return '–';
  if (factor >= 1.5) return `${factor.toPrecision(2).replace(/\.0$/, '')}× faster than real time`;
  if (factor >= 0.95) return `${factor.toFixed(2)}× real time`;
  return `${factor < 0.1 ? factor.toPrecision(1) : factor.toFixed(2)}× real time (slower)`;
}

/** The connection cell: "open", "reconnecting in 3 s", "connecting…". */
export function formatConnection(connection, retryInMs) {
  if (connection === 'closed' && retryInMs !== null && retryInMs !== undefined) return `lost · retry in ${Math.ceil(retryInMs / 1000)} s`;
  if (connection === 'connecting') return 'connecting…';
  return connection;
}

/** Where the world steps: "cpu · AMD EPYC", "cuda · NVIDIA H100"; – before the state names it. */
export function formatBackend(backend, device) {
  if (!backend) return '–';
  return device ? `${backend} · ${device}` : backend;
}

/** What bounds the step, in words for a workshop (the server's dt_bound, PROTOCOL.md `stats`). */
const DT_BOUNDS = {
  time_step: 'the maximum step',
  fixed: 'fixed',
  acoustic: 'sound speed limit',
  velocity: 'fastest particle',
  viscous: 'viscosity limit',
  force: 'strongest force',
  thermal: 'heat conduction limit',
  capillary: 'surface tension limit',
  contact: 'hot/cold solid limit',
  buoyancy: 'air buoyancy limit',
};

/** "0.4 ms · sound speed limit"; – before the first step. */
export function formatTimeStep(dt, bound) {
  if (dt === null || dt === undefined || !Number.isFinite(dt)) return '–';
  const ms = 1e3 * dt;
  const text = `${ms < 0.1 ? ms.toPrecision(2) : Number(ms.toPrecision(3))} ms`;
  return bound ? `${text} · ${DT_BOUNDS[bound] ?? bound}` : text;
}

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
      return el('div', { className: `row row-${key}` }, [el('span', { className: 'label', text: label }), this.cells[key]]);
    });
    element.replaceChildren(...rows);
  }

  /**
   * s: {connection, retryInMs, role, world, worldName, backend, device, paused, waiting, loop, particles, renderFps,
   * realtimeFactor, stepsPerS, stepMs, dt, dtBound, bytesPerSecond, tier, bits, frameAgeMs, time}.
   */
  update(s) {
    const c = this.cells;
    c.connection.textContent = formatConnection(s.connection, s.retryInMs);
    c.connection.dataset.state = s.connection;
    const mode = s.waiting ? ' (waiting for a viewer)' : s.paused ? ' (paused)' : '';
    const loop = s.loop ? ` · resets every ${s.loop} s` : '';
    c.world.textContent = s.world === null ? '–' : `${s.world} ${s.worldName || ''}${mode}${loop}${s.role ? ` · ${s.role}` : ''}`;
    c.backend.textContent = formatBackend(s.backend, s.device);
    c.realtime.textContent = formatRealtime(s.realtimeFactor, s.paused);
    c.particles.textContent = String(s.particles);
    c.render.textContent = `${s.renderFps < 10 ? s.renderFps.toFixed(1) : Math.round(s.renderFps)} fps`;
    c.sim.textContent = s.stepsPerS === null ? '–'
      : `${formatNumber(s.stepsPerS)} steps/s · ${formatNumber(s.stepMs)} ms/step · t ${s.time.toFixed(2)} s`;
    c.dt.textContent = formatTimeStep(s.dt, s.dtBound);
    c.network.textContent = `${formatBytes(s.bytesPerSecond)}${s.tier ? ` · tier ${s.tier} · ${s.bits} bit` : ''}`;
    c.age.textContent = s.frameAgeMs === null ? '–' : `${Math.round(s.frameAgeMs)} ms`;
  }
}

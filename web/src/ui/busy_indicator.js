// The progress line of a world being rebuilt (reset, restart, load scene): elapsed time and the server's build progress.
import { el } from '../util/dom.js';

const TICK_MS = 200;

/** The line shown: "Restarting the world… 3.4 s · sampling boundary 40%". */
export function busyText(label, elapsedMs, progress) {
  let text = `${label}… ${(elapsedMs / 1000).toFixed(1)} s`;
  if (progress) {
    const share = progress.total > 0 ? ` ${Math.round((100 * progress.done) / progress.total)}%` : '';
    text += ` · ${progress.message || progress.task || 'building'}${share}`;
  }
  return text;
}

export class BusyIndicator {
  constructor(element, { now = () => performance.now() } = {}) {
    this.element = element;
    this.now = now;
    this.text = el('span', { testid: 'busy-text' });
    this.bar = el('i', { className: 'fill' });
    element.replaceChildren(el('span', { className: 'spinner' }), this.text, el('span', { className: 'track' }, [this.bar]));
    element.hidden = true;
    element.dataset.started = '0'; // how many rebuilds it has shown (read by the browser tests)
    this.task = null;
  }

  /** Starts showing `label` until finish(token) with the token returned here. */
  start(label) {
    const token = {};
    this.task = { token, label, since: this.now(), progress: null };
    clearInterval(this.timer);
    this.timer = setInterval(() => this.render(), TICK_MS);
    this.render();
    this.element.hidden = false;
    this.element.dataset.started = String(Number(this.element.dataset.started) + 1);
    return token;
  }

  /** A `progress` event: {task, done, total, message}. */
  progress(progress) {
    if (!this.task) return;
    this.task.progress = progress;
    this.render();
  }

  finish(token) {
    if (!this.task || (token && this.task.token !== token)) return;
    this.task = null;
    clearInterval(this.timer);
    this.element.hidden = true;
  }

  render() {
    if (!this.task) return;
    const { label, since, progress } = this.task;
    this.text.textContent = busyText(label, this.now() - since, progress);
    const share = progress && progress.total > 0 ? progress.done / progress.total : null;
    this.bar.style.width = share === null ? '' : `${Math.round(100 * share)}%`;
    this.element.classList.toggle('indeterminate', share === null);
  }
}

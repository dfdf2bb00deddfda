// The banner of a world that blew up and paused itself: what was seen, the likely cause, and Rewind / Reset to scene.
import { el } from '../util/dom.js';

const CHECK_NAMES = {
  non_finite: 'numbers became infinite',
  speed: 'particles moved too fast',
  mach: 'the flow got too fast for the fluid’s speed of sound',
  compression: 'the fluid got squeezed',
  solver_failed: 'the solver failed',
};

/** The banner's headline for an `unstable` event: {check, time}. */
export function unstableHeadline(unstable) {
  const what = CHECK_NAMES[unstable.check] || unstable.check;
  const when = Number.isFinite(unstable.time) ? ` at t = ${unstable.time.toFixed(2)} s` : '';
  return `The simulation blew up${when} and paused: ${what}.`;
}

export class UnstableBanner {
  /** actions: rewind(), reset() */
  constructor(element, actions) {
    this.element = element;
    this.headline = el('div', { className: 'headline', testid: 'unstable-headline' });
    this.detail = el('div', { className: 'detail', testid: 'unstable-cause' });
    this.rewind = el('button', { type: 'button', testid: 'btn-rewind', onclick: () => actions.rewind() });
    this.reset = el('button', {
      type: 'button', testid: 'btn-unstable-reset', text: 'Reset to scene',
      title: 'Rebuild the world from its scene with the scene’s values', onclick: () => actions.reset(),
    });
    this.note = el('div', { className: 'detail', text: 'The presenter can rewind or reset it.' });
    element.replaceChildren(el('div', { className: 'text' }, [this.headline, this.detail, this.note]),
      el('div', { className: 'actions' }, [this.rewind, this.reset]));
    element.hidden = true;
  }

  /** unstable: the state's or event's {check, message, cause, time, rewind_to}, null when stable. */
  show(unstable, canControl) {
    if (!unstable) {
      this.element.hidden = true;
      return;
    }
    this.headline.textContent = unstableHeadline(unstable);
    this.detail.textContent = [unstable.cause, unstable.message ? `(${unstable.message})` : ''].filter(Boolean).join(' ');
    const to = unstable.rewind_to;
    this.rewind.textContent = Number.isFinite(to) ? `Rewind to t = ${to.toFixed(2)} s` : 'Rewind';
    this.rewind.title = Number.isFinite(to) ? 'Go back to the last checkpoint before the blow-up; parameters changed since are undone'
      : 'No checkpoint to go back to yet: reset instead';
    this.rewind.disabled = !canControl || !Number.isFinite(to);
    this.reset.disabled = !canControl;
    this.note.hidden = canControl;
    this.element.hidden = false;
  }
}

// The banner of a world that blew up and paused itself: what was seen and the likely cause in the panel's words, the server's suggested values applied in one click, Rewind / Reset to scene.
import { el } from '../util/dom.js';
import { describeValue, labelWords } from './parameter_words.js';

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

/** The suggested values of an `unstable` event ({name: value}), or null when it suggests none. */
export function suggestedValues(unstable) {
  const s = unstable?.suggested;
  return s && typeof s === 'object' && !Array.isArray(s) && Object.keys(s).length > 0 ? s : null;
}

/** The fix button's text: "Apply Time step 0.0004 s, Adaptive time step on and rewind". */
export function fixText(suggested, parameters, canRewind) {
  const byName = new Map((parameters || []).map((p) => [p.name, p]));
  const parts = Object.entries(suggested).map(([name, value]) => describeValue(byName.get(name), name, value));
  const list = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}` : parts[0];
  return `Apply the suggested values (${list}) and ${canRewind ? 'rewind' : 'restart'}`;
}

/** The list "3", "3 and 5", "3, 5 and 8". */
function idList(ids) {
  return ids.length > 1 ? `${ids.slice(0, -1).join(', ')} and ${ids[ids.length - 1]}` : String(ids[0]);
}

/**
 * What a rewind's ack (`applied`: {time, objects: {kept, removed, restored, walls}}) says the user
 * should know: the objects and walls it took back, so that none goes silently; null when it kept
 * them all (the parameters set since always stay).
 */
export function rewindNote(applied) {
  const o = applied?.objects;
  if (!o || o.kept) return null;
  const parts = [];
  const removed = Array.isArray(o.removed) ? o.removed : [];
  const restored = Array.isArray(o.restored) ? o.restored : [];
  if (removed.length) parts.push(`object${removed.length > 1 ? 's' : ''} ${idList(removed)} added since went`);
  if (restored.length) parts.push(`object${restored.length > 1 ? 's' : ''} ${idList(restored)} removed since came back`);
  if (o.walls) parts.push('the walls’ temperatures went back');
  if (!parts.length) return null;
  const when = Number.isFinite(applied.time) ? ` to t = ${applied.time.toFixed(2)} s` : '';
  return `Rewound${when}: ${parts.join('; ')}.`;
}

export class UnstableBanner {
  /** actions: rewind(), reset(), applySuggested(values, canRewind) */
  constructor(element, actions) {
    this.element = element;
    this.parameters = [];
    this.words = labelWords([]);
    this.suggested = null;
    this.canRewind = false;
    this.fix = el('button', {
      type: 'button', testid: 'btn-unstable-fix', className: 'attention',
      onclick: () => actions.applySuggested(this.suggested, this.canRewind),
    });
    this.headline = el('div', { className: 'headline', testid: 'unstable-headline' });
    this.detail = el('div', { className: 'detail', testid: 'unstable-cause' });
    this.rewind = el('button', { type: 'button', testid: 'btn-rewind', onclick: () => actions.rewind() });
    this.reset = el('button', {
      type: 'button', testid: 'btn-unstable-reset', text: 'Reset to scene',
      title: 'Rebuild the world from its scene with the scene’s values', onclick: () => actions.reset(),
    });
    this.note = el('div', { className: 'detail', text: 'The presenter can rewind or reset it.' });
    element.replaceChildren(el('div', { className: 'text' }, [this.headline, this.detail, this.note]),
      el('div', { className: 'actions' }, [this.fix, this.rewind, this.reset]));
    element.hidden = true;
  }

  /** The parameter table (welcome.parameters): its labels replace the names in the texts. */
  setParameters(parameters) {
    this.parameters = Array.isArray(parameters) ? parameters : [];
    this.words = labelWords(this.parameters);
  }

  /** unstable: the state's or event's {check, message, cause, time, rewind_to, suggested?}, null when stable. */
  show(unstable, canControl) {
    if (!unstable) {
      this.element.hidden = true;
      return;
    }
    this.headline.textContent = unstableHeadline(unstable);
    this.detail.textContent = this.words([unstable.cause, unstable.message ? `(${unstable.message})` : ''].filter(Boolean).join(' '));
    const to = unstable.rewind_to;
    this.suggested = suggestedValues(unstable);
    this.canRewind = Number.isFinite(to);
    this.fix.hidden = !this.suggested;
    if (this.suggested) {
      this.fix.textContent = fixText(this.suggested, this.parameters, this.canRewind);
      this.fix.title = this.canRewind ? 'Go back to the last checkpoint, set these values, and play on'
        : 'Rebuild the world from its scene with these values, and play';
    }
    this.fix.disabled = !canControl;
    this.rewind.textContent = Number.isFinite(to) ? `Rewind to t = ${to.toFixed(2)} s` : 'Rewind';
    this.rewind.title = Number.isFinite(to) ? 'Go back to the last checkpoint before the blow-up; the values you set stay'
      : 'No checkpoint to go back to yet: reset instead';
    this.rewind.disabled = !canControl || !Number.isFinite(to);
    this.reset.disabled = !canControl;
    this.note.hidden = canControl;
    this.element.hidden = false;
  }
}

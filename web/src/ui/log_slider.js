// The slider of a lil-gui number field, logarithmic where the range is wide, with the range's risky part marked on its track.
import { SLIDER_POSITIONS, positionOf, trackShare, valueAt } from './slider_scale.js';

/** Paints the track of a slider element (ours or lil-gui's) from share (0..1) to its end as risky; null clears it. */
export function paintRisky(track, share, why) {
  if (share === null || !(share < 1)) {
    track.style.removeProperty('--risky-from');
    track.classList.remove('has-risky');
    track.removeAttribute('data-risky-from');
    return;
  }
  const from = `${(Math.max(0, share) * 100).toFixed(1)}%`;
  track.style.setProperty('--risky-from', from);
  track.classList.add('has-risky');
  track.dataset.riskyFrom = from;
  track.title = why;
}

/**
 * A log-scaled `<input type=range>` on its own row under a lil-gui number controller made without
 * min/max (so without lil-gui's linear slider; its text field stays and is what people type into).
 * onSlide(value): while dragging (the field follows); onRelease(value): the slide ended (send it).
 */
export class LogSlider {
  constructor(controller, scale, { onSlide, onRelease }) {
    this.scale = scale;
    this.input = document.createElement('input');
    Object.assign(this.input, { type: 'range', min: 0, max: SLIDER_POSITIONS, step: 1, className: 'log-slider' });
    this.input.setAttribute('aria-label', `${controller._name} (logarithmic)`);
    this.input.dataset.testid = 'log-slider';
    // a row of its own under the label and the field, the panel's whole width: a 12 px nudge of a
    // 4-decade range is then a factor of about 1.4 (after the text field, which stays the first input)
    controller.domElement.append(this.input);
    controller.domElement.classList.add('log-scale');
    this.input.addEventListener('input', () => onSlide(valueAt(scale, Number(this.input.value))));
    this.input.addEventListener('change', () => onRelease(valueAt(scale, Number(this.input.value))));
  }

  /** Moves the knob to value (a state, a typed value). */
  show(value) {
    if (typeof value === 'number') this.input.value = String(positionOf(this.scale, value));
  }

  /** Marks values from `from` up as risky (null: none known). */
  markRisky(risk) {
    paintRisky(this.input, risk ? trackShare(this.scale, risk.from) : null, risk ? risk.why : '');
  }

  set disabled(disabled) {
    this.input.disabled = disabled;
  }
}

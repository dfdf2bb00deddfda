// The colour legend of the shown attribute: a gradient (or swatches for fluids) with min and max in the section's units.
import { COLORMAPS, cssGradient, legendLabels } from '../colormap.js';
import { el } from '../util/dom.js';

export class Legend {
  constructor(element) {
    this.element = element;
    this.key = null;
    element.hidden = true;
  }

  /** shown: {name, lo, hi} of the attribute drawn, or null for plain water. */
  update(shown) {
    const key = shown ? `${shown.name}:${shown.lo}:${shown.hi}` : null;
    if (key === this.key) return;
    this.key = key;
    this.element.hidden = !shown;
    if (!shown) return;
    const map = COLORMAPS[shown.name];
    const title = el('div', { className: 'legend-title', text: shown.name });
    if (map.kind === 'categorical') {
      const swatches = map.palette.slice(0, 4).map((color, i) => el('span', { className: 'swatch' }, [
        el('i', { style: `background:${color}` }), `fluid ${i}`,
      ]));
      this.element.replaceChildren(title, el('div', { className: 'swatches' }, swatches));
      return;
    }
    const labels = legendLabels(shown.name, shown.lo, shown.hi);
    this.element.replaceChildren(
      title,
      el('div', { className: 'legend-bar', style: `background:${cssGradient(shown.name)}` }),
      el('div', { className: 'legend-range' }, [
        el('span', { testid: 'legend-min', text: labels.min }), el('span', { testid: 'legend-max', text: labels.max }),
      ]),
    );
  }
}

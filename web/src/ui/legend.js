// The colour legend of the shown attribute: a gradient with the scale's min and max (auto range or set by the user), or swatches for fluids.
import { COLORMAPS, cssGradient, fluidPalette, legendLabels } from '../colormap.js';
import { el } from '../util/dom.js';

export class Legend {
  constructor(element) {
    this.element = element;
    this.key = null;
    this.scales = null; // ColourScales (colour_scale.js), attached by attachScales()
    this.actions = null;
    this.name = null;
    this.fluids = null; // state.fluids: the swatches' names and colours
    this.title = el('span', { className: 'legend-title' });
    this.mode = el('button', { type: 'button', className: 'legend-mode', testid: 'legend-scale', title: 'Set the colour range', onclick: () => this.toggleEditor() });
    this.bar = el('div', { className: 'legend-bar' });
    this.min = el('span', { testid: 'legend-min' });
    this.max = el('span', { testid: 'legend-max' });
    this.range = el('div', { className: 'legend-range' }, [this.min, this.max]);
    this.swatches = el('div', { className: 'swatches' });
    this.inputMin = el('input', { type: 'text', inputMode: 'decimal', testid: 'legend-input-min', 'aria-label': 'colour scale minimum' });
    this.inputMax = el('input', { type: 'text', inputMode: 'decimal', testid: 'legend-input-max', 'aria-label': 'colour scale maximum' });
    const submit = (event) => {
      event.preventDefault();
      this.actions?.setUser(this.name, this.inputMin.value, this.inputMax.value);
    };
    this.editor = el('form', { className: 'legend-editor', testid: 'legend-editor', hidden: true, onsubmit: submit }, [
      el('label', {}, ['min ', this.inputMin]),
      el('label', {}, ['max ', this.inputMax]),
      el('button', { type: 'submit', testid: 'legend-apply', text: 'Set' }),
      el('button', { type: 'button', testid: 'legend-auto', text: 'Auto', title: 'Range of the values in the frame', onclick: () => this.actions?.setAuto(this.name) }),
    ]);
    element.replaceChildren(el('div', { className: 'legend-head' }, [this.title, this.mode]), this.bar, this.range, this.swatches, this.editor);
    element.hidden = true;
  }

  /** scales: ColourScales; actions: {setUser(name, min, max), setAuto(name)}. */
  attachScales(scales, actions) {
    this.scales = scales;
    this.actions = actions;
    this.key = null;
  }

  /** The world's fluids (state.fluids): the fluid colouring's swatches show their names and colours. */
  setFluids(fluids) {
    const next = Array.isArray(fluids) && fluids.length ? fluids.map((f) => ({ name: String(f.name), colour: f.colour })) : null;
    if (JSON.stringify(next) === JSON.stringify(this.fluids)) return;
    this.fluids = next;
    this.key = null;
  }

  toggleEditor(open = this.editor.hidden) {
    this.editor.hidden = !open;
    if (open) this.fillInputs(true);
  }

  fillInputs(force = false) {
    const view = this.view;
    if (!view) return;
    const active = document.activeElement;
    if (force || active !== this.inputMin) this.inputMin.value = String(Number(view.min.toPrecision(5)));
    if (force || active !== this.inputMax) this.inputMax.value = String(Number(view.max.toPrecision(5)));
  }

  /** What the legend shows now, for a screenshot's caption: {name, min, max} (labels) or {name,
   *  swatches: [{name, colour}]}; null while it is hidden. */
  captionView() {
    if (this.element.hidden || !this.view) return null;
    if (!this.swatches.hidden) {
      return { name: this.view.name, swatches: [...this.swatches.children].map((sw) => ({ name: sw.textContent, colour: sw.querySelector('i')?.style.background || '#888' })) };
    }
    return { name: this.view.name, min: this.min.textContent, max: this.max.textContent };
  }

  /** shown: {name, lo, hi} of the attribute drawn (the frame's section), or null for plain water. */
  update(shown) {
    const view = this.scales ? this.scales.view(shown) : shown && { ...shown, min: shown.lo, max: shown.hi, auto: null };
    const key = view ? `${view.name}:${view.min}:${view.max}:${view.auto}` : null;
    if (key === this.key) return;
    this.key = key;
    this.view = view;
    this.element.hidden = !view;
    if (!view) {
      this.editor.hidden = true;
      return;
    }
    if (view.name !== this.name) this.editor.hidden = true;
    this.name = view.name;
    this.title.textContent = view.name;
    const categorical = COLORMAPS[view.name].kind === 'categorical';
    this.bar.hidden = categorical;
    this.range.hidden = categorical;
    this.swatches.hidden = !categorical;
    this.mode.hidden = categorical || view.auto === null || !this.actions;
    this.element.dataset.scale = view.auto === null ? 'section' : view.auto ? 'auto' : 'user';
    if (categorical) {
      this.editor.hidden = true;
      const palette = fluidPalette(this.fluids);
      const names = this.fluids ? this.fluids.map((f) => f.name) : palette.slice(0, 4).map((_, i) => `fluid ${i}`);
      this.swatches.replaceChildren(...names.map((name, i) => el('span', { className: 'swatch', testid: `legend-fluid-${i}` }, [
        el('i', { style: `background:${palette[i]}` }), name,
      ])));
      return;
    }
    this.bar.style.background = cssGradient(view.name);
    const labels = legendLabels(view.name, view.min, view.max);
    this.min.textContent = labels.min;
    this.max.textContent = labels.max;
    this.mode.textContent = view.auto ? 'auto range' : 'set range';
    this.fillInputs();
  }
}

// The "See inside" folder: per-fluid visibility and opacity, a cutaway plane along x, y or z with a slider, and the particles' drawn size (this viewer only).
import GUI from 'lil-gui';
import { AXES, OPACITY_MIN, SIZE_MAX, SIZE_MIN, defaultSettings, middleOf } from '../render/see_inside.js';

const CUT_CHOICES = { off: 'off', 'along x': 'x', 'along y': 'y', 'along z': 'z' };

export class ViewControls {
  /** onChange(settings): the settings ({hidden, opacity, cut, size}, see_inside.js) changed in the folder. */
  constructor(container, { onChange }) {
    this.container = container;
    this.onChange = onChange;
    this.settings = defaultSettings();
    this.fluids = [];
    this.domain = null;
    this.dimensions = 3;
    this.gui = null;
    this.key = '';
  }

  /** The world's fluids, domain and dimensions and the settings to show; rebuilds the folder when they change. */
  show(settings, { fluids = [], domain = null, dimensions = 3 } = {}) {
    this.settings = settings;
    const key = JSON.stringify([fluids.map((f) => f?.name), domain, dimensions]);
    this.fluids = fluids;
    this.domain = domain;
    this.dimensions = dimensions;
    if (key !== this.key || !this.gui) {
      this.key = key;
      this.build();
    } else {
      this.refresh();
    }
  }

  build() {
    if (this.gui) this.gui.destroy();
    const gui = new GUI({ container: this.container, title: 'See inside (this view only)', width: 340 });
    gui.domElement.dataset.testid = 'view-controls';
    this.gui = gui;
    this.values = {};
    this.controllers = {};
    this.fluids.forEach((fluid, f) => {
      const name = String(fluid?.name ?? `fluid ${f}`);
      this.values[`show${f}`] = true;
      this.values[`opacity${f}`] = 1;
      const shown = gui.add(this.values, `show${f}`).name(`Show ${name}`).onChange((on) => {
        if (on) this.settings.hidden.delete(f);
        else this.settings.hidden.add(f);
        this.changed();
      });
      shown.domElement.dataset.testid = `view-show-${name}`;
      shown.domElement.title = `Draw the ${name} particles (unchecked: hidden, to see what is behind them)`;
      const opacity = gui.add(this.values, `opacity${f}`, OPACITY_MIN, 1, 0.05).name(`${name} opacity`).onChange((v) => {
        this.settings.opacity[f] = v;
        this.changed();
      });
      opacity.domElement.dataset.testid = `view-opacity-${name}`;
      opacity.domElement.title = `How opaque the ${name} particles are drawn (1: opaque; lower: see-through)`;
      this.controllers[`show${f}`] = shown;
      this.controllers[`opacity${f}`] = opacity;
    });
    const axes = this.dimensions === 2 ? AXES.slice(0, 2) : AXES;
    const choices = Object.fromEntries(Object.entries(CUT_CHOICES).filter(([, a]) => a === 'off' || axes.includes(a)));
    this.values.cut = 'off';
    this.values.at = 0;
    this.values.keep = 'below';
    this.values.size = 1;
    const cut = gui.add(this.values, 'cut', choices).name('Cutaway').onChange((axis) => {
      this.settings.cut = axis === 'off' ? null : { axis, at: middleOf(this.domain, axis), keep: this.values.keep };
      this.refresh();
      this.changed();
    });
    cut.domElement.dataset.testid = 'view-cut-axis';
    cut.domElement.title = 'Cut the fluid open with a plane across the tank: the particles beyond it are not drawn';
    const at = gui.add(this.values, 'at', 0, 1, 0.001).name('Cut at (m)').onChange((v) => {
      if (this.settings.cut) this.settings.cut.at = v;
      this.changed();
    });
    at.domElement.dataset.testid = 'view-cut-at';
    at.domElement.title = 'Where the cutting plane lies along its axis (m)';
    const keep = gui.add(this.values, 'keep', { 'below the plane': 'below', 'above the plane': 'above' }).name('Keep').onChange((v) => {
      if (this.settings.cut) this.settings.cut.keep = v;
      this.changed();
    });
    keep.domElement.dataset.testid = 'view-cut-keep';
    keep.domElement.title = 'Which side of the plane stays drawn (the particles of smaller or of larger coordinates)';
    const size = gui.add(this.values, 'size', SIZE_MIN, SIZE_MAX, 0.05).name('Particle size').onChange((v) => {
      this.settings.size = v;
      this.changed();
    });
    size.domElement.dataset.testid = 'view-particle-size';
    size.domElement.title = 'The drawn size of the particles, times the size from their spacing (smaller: see between them)';
    Object.assign(this.controllers, { cut, at, keep, size });
    if (window.innerWidth <= 700) gui.close(); // phones: one tap opens it
    this.refresh();
  }

  /** Shows this.settings in the controllers. */
  refresh() {
    if (!this.gui) return;
    const { settings, values, controllers } = this;
    this.fluids.forEach((_, f) => {
      values[`show${f}`] = !settings.hidden.has(f);
      values[`opacity${f}`] = settings.opacity[f] ?? 1;
    });
    const cut = settings.cut;
    values.cut = cut ? cut.axis : 'off';
    if (cut && this.domain) {
      const k = AXES.indexOf(cut.axis);
      controllers.at.min(this.domain.min[k]).max(this.domain.max[k]).step(Math.max((this.domain.max[k] - this.domain.min[k]) / 200, 1e-4));
      values.at = cut.at;
      values.keep = cut.keep;
    }
    controllers.at.show(Boolean(cut));
    controllers.keep.show(Boolean(cut));
    values.size = settings.size;
    for (const c of Object.values(controllers)) c.updateDisplay();
  }

  changed() {
    this.onChange(this.settings);
  }
}

// The container walls' heat (walls_update): a folder per wall with "heats or cools", its temperature and its heat transfer.
import GUI from 'lil-gui';

export const WALL_NAMES = ['x_min', 'x_max', 'y_min', 'y_max', 'z_min', 'z_max'];
const WALL_WORDS = {
  x_min: 'left (x min)', x_max: 'right (x max)', y_min: 'floor (y min)', y_max: 'lid (y max)', z_min: 'back (z min)', z_max: 'front (z max)',
};
export const WALL_LIMITS = { temperature: { min: 1, max: 5000 }, heat_transfer: { min: 0, max: 100000 } };
const DEFAULT_TEMPERATURE = 293.15;
const DEFAULT_HEAT_TRANSFER = 1000; // what the server gives a wall heated without one (PROTOCOL.md walls_update)

/** The walls a world of `dimensions` has: six, or the first four in 2D. */
export function wallNames(dimensions) {
  return dimensions === 2 ? WALL_NAMES.slice(0, 4) : WALL_NAMES;
}

/**
 * What a wall's controls ask of the server, as a walls_update entry: turned off (or heat transfer 0)
 * insulates; on, the temperature and heat transfer shown. `was` is the wall in state.walls (or undefined).
 */
export function wallChange(field, value, was) {
  if (field === 'on') {
    return value ? { temperature: was?.temperature ?? DEFAULT_TEMPERATURE, heat_transfer: was?.heat_transfer || DEFAULT_HEAT_TRANSFER } : { heat_transfer: 0 };
  }
  if (field === 'heat_transfer' && !(was?.heat_transfer > 0)) {
    return { temperature: was?.temperature ?? DEFAULT_TEMPERATURE, heat_transfer: value }; // a wall that insulated needs a temperature
  }
  return { [field]: value };
}

export class WallPanel {
  /** update(walls): send {NAME: {temperature?, heat_transfer?}} (walls_update). */
  constructor(container, { update }) {
    this.container = container;
    this.update = update;
    this.gui = null;
    this.dimensions = 0;
    this.folders = new Map(); // name -> {folder, values, controllers}
    this.walls = {};
  }

  build(dimensions) {
    if (this.gui) this.gui.destroy();
    this.dimensions = dimensions;
    this.folders.clear();
    const gui = new GUI({ container: this.container, title: 'Walls: heat and cold', width: 340 });
    this.gui = gui;
    gui.domElement.dataset.testid = 'wall-panel';
    gui.domElement.title = 'The container walls that heat or cool the fluid touching them (with heat conduction on)';
    for (const name of wallNames(dimensions)) {
      const folder = gui.addFolder(`Wall: ${WALL_WORDS[name]}`);
      folder.domElement.dataset.testid = `wall-${name}`;
      const values = { on: false, temperature: DEFAULT_TEMPERATURE, heat_transfer: DEFAULT_HEAT_TRANSFER };
      const on = folder.add(values, 'on').name('Heats or cools');
      const temperature = folder.add(values, 'temperature', WALL_LIMITS.temperature.min, WALL_LIMITS.temperature.max).name('Temperature (K)');
      const transfer = folder.add(values, 'heat_transfer', WALL_LIMITS.heat_transfer.min, WALL_LIMITS.heat_transfer.max).name('Heat transfer (W/(m² K))');
      on.domElement.dataset.testid = `wall-${name}-on`;
      temperature.domElement.dataset.testid = `wall-${name}-temperature`;
      transfer.domElement.dataset.testid = `wall-${name}-heat_transfer`;
      temperature.domElement.title = `The wall's temperature (K, ${WALL_LIMITS.temperature.min} to ${WALL_LIMITS.temperature.max})`;
      transfer.domElement.title = 'How strongly it heats or cools the fluid touching it: flux = heat transfer × (T_wall − T_fluid) per area; 0 insulates';
      const send = (field) => (value) => this.update({ [name]: wallChange(field, value, this.walls[name]) });
      on.onChange(send('on'));
      temperature.onFinishChange(send('temperature'));
      transfer.onFinishChange(send('heat_transfer'));
      folder.close();
      this.folders.set(name, { folder, values, controllers: [on, temperature, transfer] });
    }
    gui.close();
  }

  /** Shows state.walls ({NAME: {temperature, heat_transfer}}; a wall not there insulates) for a world of `dimensions`;
   *  a new scene ("world:scene") opens the folders of the walls that heat. */
  show(walls = {}, dimensions = 3, canControl = true, scene = null) {
    const fresh = !this.gui || dimensions !== this.dimensions || scene !== this.scene;
    this.scene = scene;
    if (fresh) this.build(dimensions);
    this.walls = walls ?? {};
    if (fresh && Object.keys(this.walls).length > 0 && window.innerWidth > 700) {
      this.gui.open(); // a world whose walls heat shows them
      for (const name of Object.keys(this.walls)) this.folders.get(name)?.folder.open();
    }
    for (const [name, { values, controllers }] of this.folders) {
      const wall = this.walls[name];
      const editing = controllers.some((c) => c.domElement.contains(document.activeElement));
      if (!editing) {
        values.on = wall?.heat_transfer > 0;
        if (wall && Number.isFinite(wall.temperature)) values.temperature = wall.temperature;
        if (wall && Number.isFinite(wall.heat_transfer)) values.heat_transfer = wall.heat_transfer;
        for (const c of controllers) c.updateDisplay();
      }
      for (const c of controllers) c.disable(!canControl);
      controllers[1].show(values.on);
      controllers[2].show(values.on);
    }
  }
}

// Builders of the client messages of PROTOCOL.md 2.2 (plain objects; the session adds ids and sends them).

export const CLIENT_NAME = 'fluidcast viewer 0.1';

/** A vector of 3 finite numbers, rounded to micrometres (the protocol's positions are metres). */
export function vector(v) {
  if (!v || v.length !== 3) throw new TypeError('a vector has 3 components');
  return [0, 1, 2].map((i) => {
    const x = Number(v[i]);
    if (!Number.isFinite(x)) throw new TypeError(`vector component ${i} is not a finite number`);
    return Math.round(x * 1e6) / 1e6 + 0; // + 0 turns -0 into 0
  });
}

export function hello(token = null) {
  const message = { type: 'hello', client: CLIENT_NAME, protocol: 1 };
  if (token) message.token = token;
  return message;
}

/** products: the products the client wants (PROTOCOL.md 6); null leaves them out and the server sends particle frames. */
export function subscribe(world, { attributes = [], maxFps = 30, bits = 16, products = null } = {}) {
  const message = { type: 'subscribe', world, attributes: [...attributes], max_fps: maxFps, bits };
  if (products) message.products = [...products];
  return message;
}

export const unsubscribe = (world) => ({ type: 'unsubscribe', world });
export const keyRequest = (world) => ({ type: 'key_request', world });
export const listWorlds = () => ({ type: 'list_worlds' });
export const pause = (world) => ({ type: 'pause', world });
export const resume = (world) => ({ type: 'resume', world });
export const step = (world, frames = 1) => ({ type: 'step', world, frames });

export function set(world, values) {
  if (!values || Object.keys(values).length === 0) throw new TypeError('set needs at least one value');
  return { type: 'set', world, values: { ...values } };
}

export function reset(world, values = null) {
  const message = { type: 'reset', world };
  if (values && Object.keys(values).length > 0) message.values = { ...values };
  return message;
}

/** Back to a checkpoint: without seconds, the one before the blow-up (or the newest). */
export function rewind(world, seconds = null) {
  const message = { type: 'rewind', world };
  if (seconds !== null) message.seconds = seconds;
  return message;
}

/** scene: a shipped scene's name, or a whole scene document (an uploaded file, as an object). */
export const loadScene = (world, scene) => ({ type: 'load_scene', world, scene });

/** collider: {shape: 'sphere', position, radius} or {shape: 'box', position, half_extents}. */
export function colliderAdd(world, collider) {
  const body = { shape: collider.shape, position: vector(collider.position) };
  if (collider.shape === 'sphere') body.radius = collider.radius;
  else if (collider.shape === 'box') body.half_extents = vector(collider.half_extents);
  else throw new TypeError(`a collider is a sphere or a box, not ${collider.shape}`);
  return { type: 'collider_add', world, collider: body };
}

export const colliderRemove = (world, id) => ({ type: 'collider_remove', world, collider: id });

const THERMAL_FIELDS = ['temperature', 'heat_transfer'];

function thermalChanges(changes, what) {
  const body = {};
  for (const [name, value] of Object.entries(changes)) {
    if (!THERMAL_FIELDS.includes(name)) throw new TypeError(`${what} has no field ${name}`);
    body[name] = value;
  }
  if (Object.keys(body).length === 0) throw new TypeError(`${what} needs at least one change`);
  return body;
}

/** changes: {temperature?, heat_transfer?} of a sphere or box (a heater or a cold plate). */
export const colliderUpdate = (world, id, changes) => ({ type: 'collider_update', world, collider: id, changes: thermalChanges(changes, 'collider_update') });

const WALLS = ['x_min', 'x_max', 'y_min', 'y_max', 'z_min', 'z_max'];

/** walls: {y_min: {temperature?, heat_transfer?}, ...}: the container walls to heat or cool. */
export function wallsUpdate(world, walls) {
  const body = {};
  for (const [name, changes] of Object.entries(walls)) {
    if (!WALLS.includes(name)) throw new TypeError(`the container has no wall ${name}`);
    body[name] = thermalChanges(changes, `walls.${name}`);
  }
  if (Object.keys(body).length === 0) throw new TypeError('walls_update needs at least one wall');
  return { type: 'walls_update', world, walls: body };
}

/** The presenter's camera for the room; null pose ends the broadcast. */
export function camera(world, pose) {
  if (!pose) return { type: 'camera', world, active: false };
  return { type: 'camera', world, position: vector(pose.position), target: vector(pose.target) };
}

/** Hides a world from watchers (a controller still sees it). */
export const setWorldHidden = (world, hidden) => ({ type: 'set_world', world, hidden: Boolean(hidden) });

/** Switches the world's solver; the particles stay where they are. */
export const setSolver = (world, solver) => ({ type: 'set_solver', world, solver });

/** emitter: {position?, direction?, radius?, speed?, rate?, fluid?, temperature?}: what is left out the server
 * decides (PROTOCOL.md emitter_add): a place above the fluid's surface aimed down, 2.5 spacings, 1.5 m/s, a continuous
 * jet for the world's dimensions, the fluid's temperature. */
export function emitterAdd(world, emitter = {}) {
  const body = {};
  const given = (v) => v !== undefined && v !== null;
  if (given(emitter.position)) body.position = vector(emitter.position);
  if (given(emitter.direction)) body.direction = vector(emitter.direction);
  for (const name of ['radius', 'speed', 'rate', 'fluid', 'temperature']) if (given(emitter[name])) body[name] = emitter[name];
  return { type: 'emitter_add', world, emitter: body };
}

const EMITTER_FIELDS = ['position', 'direction', 'radius', 'speed', 'rate', 'fluid', 'temperature'];

export function emitterUpdate(world, id, changes) {
  const body = {};
  for (const [name, value] of Object.entries(changes)) {
    if (!EMITTER_FIELDS.includes(name)) throw new TypeError(`emitter has no field ${name}`);
    body[name] = name === 'position' || name === 'direction' ? vector(value) : value;
  }
  if (Object.keys(body).length === 0) throw new TypeError('emitter_update needs at least one change');
  return { type: 'emitter_update', world, emitter: id, changes: body };
}

export const emitterRemove = (world, id) => ({ type: 'emitter_remove', world, emitter: id });

/** velocity components are clamped to the protocol's ±1000 m/s; rotation (a box's, degrees about x, y, z) is sent when given. */
export function colliderMove(world, id, position, velocity = [0, 0, 0], rotation = null) {
  const v = vector(velocity).map((x) => Math.max(-1000, Math.min(1000, x)));
  const message = { type: 'collider_move', world, collider: id, position: vector(position), velocity: v };
  if (rotation) message.rotation = vector(rotation);
  return message;
}

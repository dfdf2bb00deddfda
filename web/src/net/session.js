// The protocol session: hello/welcome, the subscription (re-made after every reconnect), requests with ids, state, stats, errors, frames.
import { Emitter } from '../util/emitter.js';
import { BinaryDispatch, MAGIC, decodeCensus } from './binary_dispatch.js';
import * as messages from './messages.js';

const KEY_REQUEST_RETRY_MS = 1000;

/**
 * Events: 'connection' (state), 'welcome', 'worlds', 'state', 'stats', 'ack' (message),
 * 'error' ({code, field, message, request}), 'subscribed' (world), 'bye' (message),
 * 'unstable' (the subscribed world blew up and paused itself: {check, message, cause, rewind_to}),
 * 'camera' (the presenter's camera of the subscribed world: {position, target, active}),
 * 'progress' (a build of the subscribed world under way: {task, done, total, message}),
 * 'census' (the subscribed world's census, when `products` names it: binary_dispatch.js decodeCensus).
 * Binary messages are dispatched by magic (binary_dispatch.js): frames go through `receiver` (a FrameReceiver), whose need_key / corrupt reports come back
 * here through needKey() / corruptFrame().
 */
export class Session extends Emitter {
  constructor({ socket, token = null, world = null, attribute = null, maxFps = 30, bits = 16, products = null, now = () => Date.now() }) {
    super();
    Object.assign(this, { socket, token, now });
    this.options = { attribute, maxFps, bits, products };
    this.wantedWorld = world; // from the link; used on the first welcome
    this.world = null;
    this.role = null;
    this.tokenRefused = false; // the last hello's token did not match the server's
    this.welcome = null;
    this.restarted = false; // the newest welcome came from a restarted server (handleWelcome)
    this.worlds = [];
    this.state = null;
    this.stats = null;
    this.lastError = null;
    this.pending = new Map();
    this.nextId = 1;
    this.keyRequestedAt = null;
    this.receiver = null;
    socket.on('state', (state) => this.connectionChanged(state));
    socket.on('text', (text) => this.handleText(text));
    this.binary = new BinaryDispatch()
      .on(MAGIC.particles, (buffer) => Boolean(this.receiver && this.receiver.receive(buffer)))
      .on(MAGIC.census, (buffer) => this.handleCensus(buffer));
    socket.on('binary', (buffer) => this.binary.dispatch(buffer));
  }

  get connection() {
    return this.socket.state;
  }

  get canControl() {
    return this.role === 'control';
  }

  connectionChanged(state) {
    if (state === 'open') {
      this.send(messages.hello(this.token));
    } else if (state === 'closed') {
      for (const [, callbacks] of this.pending) callbacks.onError?.({ code: 'disconnected', field: null, message: 'connection lost' });
      this.pending.clear();
      this.role = null;
      if (this.receiver) this.receiver.reset(); // the next subscription starts with a key frame
    }
    this.emit('connection', state);
  }

  /** Sends a message without an id; false when not connected. */
  send(message) {
    return this.socket.send(JSON.stringify(message));
  }

  /**
   * Sends a request with an id; onAck(ack) or onError(error) is called with its reply. showsError:
   * onError shows the error itself (next to the field), so no 'error' event (toast) is emitted.
   */
  request(message, { onAck, onError, showsError = false } = {}) {
    const id = this.nextId++;
    if (!this.socket.send(JSON.stringify({ ...message, id }))) {
      const error = { code: 'disconnected', field: null, message: `${message.type}: not connected to the server`, request: message.type };
      this.reportError(error, { quiet: showsError });
      onError?.(error);
      return null;
    }
    this.pending.set(id, { onAck, onError, showsError });
    return id;
  }

  /** A request on the subscribed world: build(world, ...args) from messages.js; null without a world. */
  control(build, args = [], callbacks = {}) {
    if (this.world === null) return null;
    return this.request(build(this.world, ...args), callbacks);
  }

  handleText(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    switch (message.type) {
      case 'welcome': return this.handleWelcome(message);
      case 'worlds': return this.handleWorlds(message.worlds);
      case 'ack': return this.settle(message, 'onAck', 'ack');
      case 'error': return this.settle(message, 'onError', 'error');
      case 'state':
        if (message.world === this.world) {
          this.state = message;
          this.emit('state', message);
        }
        return undefined;
      case 'stats':
        if (message.world === this.world) {
          this.stats = message;
          this.emit('stats', message);
        }
        return undefined;
      case 'unstable': return message.world === this.world ? this.emit('unstable', message) : undefined;
      case 'camera': return message.world === this.world ? this.emit('camera', message) : undefined;
      case 'progress': return message.world === this.world ? this.emit('progress', message) : undefined;
      case 'bye': return this.emit('bye', message);
      default: return undefined;
    }
  }

  settle(message, callback, event) {
    const callbacks = message.id !== null && message.id !== undefined ? this.pending.get(message.id) : undefined;
    if (callbacks) this.pending.delete(message.id);
    if (event === 'error') this.reportError(message, { quiet: Boolean(callbacks?.showsError) });
    else this.emit('ack', message);
    callbacks?.[callback]?.(message);
  }

  /** Records an error; emits 'error' (the toast) unless the request's own handler shows it (quiet). */
  reportError(error, { quiet = false } = {}) {
    this.lastError = { code: error.code, field: error.field ?? null, message: error.message };
    if (!quiet) this.emit('error', { ...this.lastError, request: error.request ?? null });
  }

  /** Says hello again with a token typed in the page: the server answers with a new welcome (and role). */
  authenticate(token) {
    this.token = token || null;
    return this.send(messages.hello(this.token));
  }

  handleWelcome(message) {
    const before = this.welcome?.server?.instance;
    const now = message.server?.instance;
    // a welcome from another start of the server (welcome.server.instance): its worlds were rebuilt
    this.restarted = typeof before === 'string' && typeof now === 'string' && before !== now;
    this.welcome = message;
    this.role = message.role;
    this.tokenRefused = message.token_refused === true || (Boolean(this.token) && message.role !== 'control');
    this.worlds = message.worlds || [];
    this.socket.healthy();
    this.emit('welcome', message);
    this.emit('worlds', this.worlds);
    const ids = this.worlds.map((w) => w.id);
    const preferred = [this.world, this.wantedWorld].find((id) => id !== null && ids.includes(id));
    const world = preferred ?? ids[0] ?? null;
    if (this.wantedWorld !== null && !ids.includes(this.wantedWorld) && this.world === null) {
      this.reportError({ code: 'unknown_world', field: 'world', message: `world: no world ${this.wantedWorld} on this server; showing ${world ?? 'none'}` });
    }
    this.world = null; // a new connection has no subscription yet
    if (world !== null) this.subscribe(world);
  }

  handleWorlds(worlds) {
    this.worlds = worlds || [];
    this.emit('worlds', this.worlds);
    if (this.world !== null && !this.worlds.some((w) => w.id === this.world) && this.worlds.length > 0) {
      this.world = null; // our world was closed (or hidden from us): nothing to unsubscribe from
      this.subscribe(this.worlds[0].id);
    }
  }

  /** Subscribes to `world` (leaving the previous one) with the current options. */
  subscribe(world) {
    if (this.world !== null && this.world !== world) this.send(messages.unsubscribe(this.world));
    if (this.world !== world) {
      this.state = null;
      this.stats = null;
    }
    this.world = world;
    this.wantedWorld = world;
    this.keyRequestedAt = null;
    if (this.receiver) this.receiver.expect(world);
    const { attribute, maxFps, bits, products, withFluid } = this.options;
    // withFluid: the fluid index rides along (the viewer hides some fluids by it)
    const attributes = [...new Set([attribute, withFluid ? 'fluid' : null].filter(Boolean))];
    this.request(messages.subscribe(world, { attributes, maxFps, bits, products }));
    this.emit('subscribed', world);
  }

  handleCensus(buffer) {
    const census = decodeCensus(buffer);
    if (!census || census.world !== this.world) return false;
    this.emit('census', census);
    return true;
  }

  /** Changes attribute / maxFps / bits and re-subscribes (the server starts a new stream with a key frame). */
  setOptions(options) {
    Object.assign(this.options, options);
    if (this.world !== null) this.subscribe(this.world);
  }

  /** The decoder lost the chain: ask for a key frame (again after a second without one). */
  needKey() {
    const now = this.now();
    if (this.world === null) return;
    if (this.keyRequestedAt !== null && now - this.keyRequestedAt < KEY_REQUEST_RETRY_MS) return;
    this.keyRequestedAt = now;
    this.send(messages.keyRequest(this.world));
  }

  keyFrameArrived() {
    this.keyRequestedAt = null;
  }

  corruptFrame(error) {
    this.reportError({ code: 'corrupt', field: null, message: `frame: ${error.message}` });
    this.needKey();
  }
}

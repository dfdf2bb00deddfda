// One WebSocket (subprotocol fluidcast.v1) that reconnects with backoff; reports its state, messages and received bytes.
import { Backoff } from './backoff.js';
import { Emitter } from '../util/emitter.js';

export const SUBPROTOCOL = 'fluidcast.v1';

/**
 * Events: 'state' ('connecting' | 'open' | 'closed'), 'text' (string), 'binary' (ArrayBuffer),
 * 'bytes' (length of every received message). After a close it waits backoff.delay() and
 * reconnects; healthy() (called on welcome) resets the backoff.
 */
export class ReconnectingSocket extends Emitter {
  constructor(url, {
    createSocket = (u) => new WebSocket(u, SUBPROTOCOL),
    backoff = new Backoff(),
    setTimer = (fn, ms) => setTimeout(fn, ms),
    clearTimer = (id) => clearTimeout(id),
    now = () => Date.now(),
  } = {}) {
    super();
    Object.assign(this, { url, createSocket, backoff, setTimer, clearTimer, now });
    this.state = 'closed';
    this.socket = null;
    this.timer = null;
    this.retryAt = null;
    this.stopped = true;
  }

  start() {
    this.stopped = false;
    this.open();
  }

  stop() {
    this.stopped = true;
    if (this.timer !== null) this.clearTimer(this.timer);
    this.timer = null;
    if (this.socket) this.socket.close(1000);
  }

  healthy() {
    this.backoff.reset();
  }

  send(text) {
    if (this.state !== 'open') return false;
    this.socket.send(text);
    return true;
  }

  open() {
    this.timer = null;
    this.retryAt = null;
    this.setState('connecting');
    let socket;
    try {
      socket = this.createSocket(this.url);
    } catch (error) {
      this.closed();
      return;
    }
    socket.binaryType = 'arraybuffer';
    this.socket = socket;
    socket.onopen = () => this.setState('open');
    socket.onmessage = (event) => {
      const data = event.data;
      if (typeof data === 'string') {
        this.emit('bytes', data.length);
        this.emit('text', data);
      } else {
        this.emit('bytes', data.byteLength);
        this.emit('binary', data);
      }
    };
    socket.onclose = () => {
      if (this.socket === socket) this.closed();
    };
    socket.onerror = () => {}; // a close follows
  }

  closed() {
    this.socket = null;
    this.setState('closed');
    if (this.stopped) return;
    const delay = this.backoff.delay();
    this.retryAt = this.now() + delay;
    this.timer = this.setTimer(() => this.open(), delay);
  }

  setState(state) {
    if (state === this.state) return;
    this.state = state;
    this.emit('state', state);
  }
}

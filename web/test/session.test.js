// The protocol session over a fake socket: hello with the token, subscribe on welcome, replies by id, re-subscribe after reconnect, key requests.
import { describe, it, expect } from 'vitest';
import { Session } from '../src/net/session.js';
import { ReconnectingSocket } from '../src/net/socket.js';
import { Backoff } from '../src/net/backoff.js';
import * as messages from '../src/net/messages.js';
import { Emitter } from '../src/util/emitter.js';

class FakeSocket extends Emitter {
  constructor() {
    super();
    this.state = 'closed';
    this.sent = [];
    this.healthyCalls = 0;
  }
  send(text) {
    if (this.state !== 'open') return false;
    this.sent.push(JSON.parse(text));
    return true;
  }
  healthy() { this.healthyCalls += 1; }
  setState(state) { this.state = state; this.emit('state', state); }
  receive(message) { this.emit('text', JSON.stringify(message)); }
  take() { const sent = this.sent; this.sent = []; return sent; }
}

const WELCOME = {
  type: 'welcome', id: null, role: 'control', protocol: 1, worlds: [{ id: 1, name: 'dam_break' }, { id: 2, name: 'fountain' }],
  scenes: [], solvers: [], parameters: [{ name: 'gravity_y', type: 'float', unit: 'm/s^2', min: -100, max: 100, default: -9.81, live: true }],
};

function connected(options = {}) {
  const socket = new FakeSocket();
  const receiver = { expected: [], resets: 0, expect(w) { this.expected.push(w); }, reset() { this.resets += 1; }, receive() {} };
  const session = new Session({ socket, ...options });
  session.receiver = receiver;
  socket.setState('open');
  return { socket, session, receiver };
}

describe('Session', () => {
  it('says hello with the token when the socket opens', () => {
    const { socket } = connected({ token: 'abc' });
    expect(socket.take()).toEqual([messages.hello('abc')]);
  });

  it('subscribes to the linked world with the link options on welcome, and resets the backoff', () => {
    const { socket, session, receiver } = connected({ world: 2, attribute: 'speed', bits: 12, maxFps: 60 });
    socket.take();
    socket.receive(WELCOME);
    const [subscribe] = socket.take();
    expect(subscribe).toMatchObject({ type: 'subscribe', world: 2, attributes: ['speed'], bits: 12, max_fps: 60 });
    expect(session.world).toBe(2);
    expect(session.role).toBe('control');
    expect(receiver.expected).toEqual([2]);
    expect(socket.healthyCalls).toBe(1);
  });

  it('says the server restarted when a later welcome has another server.instance, not after a plain reconnect', () => {
    const { socket, session } = connected();
    const welcome = (instance) => ({ ...WELCOME, server: { name: 'fluidcast', version: '0.2.0', instance } });
    socket.receive(welcome('00000000000000aa'));
    expect(session.restarted).toBe(false); // the first welcome: nothing to compare with
    socket.receive(welcome('00000000000000aa'));
    expect(session.restarted).toBe(false); // the same server (a reconnect)
    socket.receive(welcome('00000000000000bb'));
    expect(session.restarted).toBe(true);
    socket.receive(WELCOME); // an older server without instance: unknown, never claimed
    expect(session.restarted).toBe(false);
  });

  it('falls back to the first world and reports an unknown linked world', () => {
    const { socket, session } = connected({ world: 9 });
    const errors = [];
    session.on('error', (e) => errors.push(e));
    socket.receive(WELCOME);
    expect(session.world).toBe(1);
    expect(errors[0]).toMatchObject({ code: 'unknown_world', field: 'world' });
  });

  it('matches ack and error replies to their requests by id and records the last error', () => {
    const { socket, session } = connected();
    socket.receive(WELCOME);
    socket.take();
    const outcomes = [];
    const a = session.control(messages.set, [{ gravity_y: -3 }], { onAck: (m) => outcomes.push(['ack', m.id]) });
    const b = session.control(messages.set, [{ gravity_y: 500 }], { onError: (m) => outcomes.push(['error', m.id]) });
    expect(socket.take().map((m) => m.id)).toEqual([a, b]);
    socket.receive({ type: 'error', id: b, request: 'set', code: 'bad_value', field: 'values.gravity_y', message: 'values.gravity_y: expected a number from -100 to 100, got 500' });
    socket.receive({ type: 'ack', id: a, request: 'set', applied: { values: { gravity_y: -3 } } });
    expect(outcomes).toEqual([['error', b], ['ack', a]]);
    expect(session.lastError).toEqual({ code: 'bad_value', field: 'values.gravity_y', message: 'values.gravity_y: expected a number from -100 to 100, got 500' });
  });

  it('keeps state and stats of the subscribed world only', () => {
    const { socket, session } = connected();
    socket.receive(WELCOME);
    socket.receive({ type: 'state', world: 2, paused: true });
    expect(session.state).toBeNull();
    socket.receive({ type: 'state', world: 1, paused: true });
    expect(session.state.paused).toBe(true);
  });

  it('reports the unstable event of the subscribed world only', () => {
    const { socket, session } = connected();
    const seen = [];
    session.on('unstable', (u) => seen.push(u.check));
    socket.receive(WELCOME);
    socket.receive({ type: 'unstable', id: null, world: 2, check: 'speed', message: '', cause: '', time: 1, rewind_to: 0 });
    socket.receive({ type: 'unstable', id: null, world: 1, check: 'mach', message: '', cause: '', time: 1, rewind_to: 0 });
    expect(seen).toEqual(['mach']);
  });

  it('after a reconnect says hello again and re-subscribes to the same world with the same options', () => {
    const { socket, session, receiver } = connected({ token: 't' });
    socket.receive(WELCOME);
    session.subscribe(2);
    session.setOptions({ attribute: 'density' });
    const failed = [];
    session.control(messages.pause, [], { onError: (e) => failed.push(e.code) });
    socket.take();
    socket.setState('closed');
    expect(failed).toEqual(['disconnected']);
    expect(receiver.resets).toBe(1);
    socket.setState('connecting');
    socket.setState('open');
    expect(socket.take()).toEqual([messages.hello('t')]);
    socket.receive(WELCOME);
    expect(socket.take()).toMatchObject([{ type: 'subscribe', world: 2, attributes: ['density'] }]);
  });

  it('unsubscribes from the old world when switching', () => {
    const { socket, session } = connected();
    socket.receive(WELCOME);
    socket.take();
    session.subscribe(2);
    expect(socket.take().map((m) => [m.type, m.world])).toEqual([['unsubscribe', 1], ['subscribe', 2]]);
  });

  it('sends one key_request per second while the chain is broken, and again after a key frame', () => {
    let now = 0;
    const { socket, session } = connected({ now: () => now });
    socket.receive(WELCOME);
    socket.take();
    session.needKey();
    session.needKey();
    now = 500;
    session.needKey();
    expect(socket.take()).toEqual([messages.keyRequest(1)]);
    now = 1200;
    session.needKey();
    expect(socket.take()).toEqual([messages.keyRequest(1)]);
    session.keyFrameArrived();
    session.needKey();
    expect(socket.take()).toEqual([messages.keyRequest(1)]);
  });

  it('reports a request made while disconnected as an error', () => {
    const socket = new FakeSocket();
    const session = new Session({ socket });
    session.world = 1;
    const errors = [];
    session.on('error', (e) => errors.push(e.code));
    expect(session.control(messages.pause)).toBeNull();
    expect(errors).toEqual(['disconnected']);
  });
});

describe('ReconnectingSocket', () => {
  function harness() {
    const created = [];
    const timers = [];
    const socket = new ReconnectingSocket('ws://h/', {
      createSocket: (url) => { const s = { url, close() {} }; created.push(s); return s; },
      backoff: new Backoff({ jitter: 0 }),
      setTimer: (fn, ms) => { timers.push({ fn, ms }); return timers.length; },
      clearTimer: () => {},
      now: () => 0,
    });
    const states = [];
    socket.on('state', (s) => states.push(s));
    return { socket, created, timers, states };
  }

  it('reconnects after 0.5, 1, 2 s ... and resets the schedule once healthy', () => {
    const { socket, created, timers, states } = harness();
    socket.start();
    created[0].onclose();
    timers.shift().fn();
    created[1].onclose();
    timers[0].fn();
    expect(states).toEqual(['connecting', 'closed', 'connecting', 'closed', 'connecting']);
    created[2].onopen();
    socket.healthy();
    created[2].onclose();
    expect(timers.map((t) => t.ms)).toEqual([1000, 500]);
  });

  it('reports received bytes and splits text from binary', () => {
    const { socket, created } = harness();
    const seen = [];
    socket.on('bytes', (n) => seen.push(['bytes', n]));
    socket.on('text', (t) => seen.push(['text', t]));
    socket.on('binary', (b) => seen.push(['binary', b.byteLength]));
    socket.start();
    created[0].onopen();
    created[0].onmessage({ data: '{"type":"bye"}' });
    created[0].onmessage({ data: new ArrayBuffer(80) });
    expect(seen).toEqual([['bytes', 14], ['text', '{"type":"bye"}'], ['bytes', 80], ['binary', 80]]);
  });

  it('does not reconnect after stop()', () => {
    const { socket, created, timers } = harness();
    socket.start();
    socket.stop();
    created[0].onclose();
    expect(timers).toEqual([]);
  });

  it('says when the token was refused, and says hello again with a typed token', () => {
    const { socket, session } = connected({ token: 'wrong' });
    socket.take();
    socket.receive({ ...WELCOME, role: 'watch', token_refused: true });
    expect(session.tokenRefused).toBe(true);
    expect(session.canControl).toBe(false);
    socket.take();
    session.authenticate('right');
    expect(socket.take()).toEqual([messages.hello('right')]);
    socket.receive({ ...WELCOME, role: 'control', token_refused: false });
    expect(session.tokenRefused).toBe(false);
    expect(session.canControl).toBe(true);
  });

  it('counts a watch welcome for a token as refused even from a server that does not say so', () => {
    const { socket, session } = connected({ token: 'x' });
    socket.receive({ ...WELCOME, role: 'watch' });
    expect(session.tokenRefused).toBe(true);
  });

  it('leaves the toast out when the request shows its own error, but records it', () => {
    const { socket, session } = connected();
    socket.receive(WELCOME);
    socket.take();
    const toasts = [];
    const shown = [];
    session.on('error', (e) => toasts.push(e));
    const id = session.control(messages.set, [{ gravity_y: 500 }], { showsError: true, onError: (e) => shown.push(e.field) });
    socket.receive({ type: 'error', id, request: 'set', code: 'bad_value', field: 'values.gravity_y', message: 'values.gravity_y: expected …' });
    expect(shown).toEqual(['values.gravity_y']);
    expect(toasts).toEqual([]);
    expect(session.lastError.code).toBe('bad_value');
    const other = session.control(messages.pause);
    socket.receive({ type: 'error', id: other, request: 'pause', code: 'forbidden', field: null, message: 'no' });
    expect(toasts.map((e) => e.code)).toEqual(['forbidden']);
  });

  it('passes the subscribed world\'s camera and build progress on, and no other world\'s', () => {
    const { socket, session } = connected();
    socket.receive(WELCOME);
    const seen = [];
    session.on('camera', (m) => seen.push(['camera', m.world]));
    session.on('progress', (m) => seen.push(['progress', m.done]));
    socket.receive({ type: 'camera', id: null, world: 1, active: true, position: [1, 2, 3], target: [0, 0, 0] });
    socket.receive({ type: 'camera', id: null, world: 2, active: false });
    socket.receive({ type: 'progress', id: null, world: 1, task: 'build', done: 3, total: 4, message: 'sampling' });
    expect(seen).toEqual([['camera', 1], ['progress', 3]]);
  });
});

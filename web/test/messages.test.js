// Message builders against the protocol's schema examples, and the drag throttle with its velocity estimate.
import { readFileSync } from 'node:fs';
import { describe, it, expect } from 'vitest';
import * as messages from '../src/net/messages.js';
import { DragSender } from '../src/net/drag_sender.js';

const example = (name) => JSON.parse(readFileSync(new URL(`../../protocol/schema/examples/valid/${name}.json`, import.meta.url), 'utf8'));
const withoutId = ({ id, ...rest }) => rest;

describe('message builders', () => {
  it('build the schema examples exactly', () => {
    expect(messages.emitterAdd(1, { position: [0.3, 0.12, 0.3], direction: [0.2, 1, 0.2], speed: 2.5, rate: 1571, radius: 0.04 }))
      .toEqual(withoutId(example('emitter_add')));
    expect(messages.emitterAdd(1, {})).toEqual(example('emitter_add_defaults')); // the server places it (PROTOCOL.md)
    expect(messages.colliderMove(1, 2, [0.7, 0.1, 0.3], [1000, -1000, 0])).toEqual(withoutId(example('collider_move')));
    expect(messages.set(1, withoutId(example('set')).values)).toEqual(withoutId(example('set')));
    expect(messages.pause(withoutId(example('pause')).world)).toEqual(withoutId(example('pause')));
    expect(messages.keyRequest(withoutId(example('key_request')).world)).toEqual(withoutId(example('key_request')));
    expect(messages.setSolver(1, 'pbf')).toEqual(withoutId(example('set_solver')));
    expect(messages.colliderUpdate(1, 2, { temperature: 350 })).toEqual(withoutId(example('collider_update')));
    expect(messages.wallsUpdate(1, { y_min: { temperature: 340, heat_transfer: 1500 }, y_max: { temperature: 285 } }))
      .toEqual(withoutId(example('walls_update')));
  });

  it('collider_update and walls_update carry thermal fields only', () => {
    expect(() => messages.colliderUpdate(1, 2, { radius: 0.1 })).toThrow(/no field radius/);
    expect(() => messages.colliderUpdate(1, 2, {})).toThrow(TypeError);
    expect(() => messages.wallsUpdate(1, { floor: { temperature: 300 } })).toThrow(/no wall floor/);
    expect(() => messages.wallsUpdate(1, { y_min: {} })).toThrow(TypeError);
    expect(() => messages.wallsUpdate(1, {})).toThrow(TypeError);
  });

  it('subscribe carries attributes, max_fps and bits', () => {
    expect(messages.subscribe(3, { attributes: ['speed'], maxFps: 60, bits: 12 }))
      .toEqual({ type: 'subscribe', world: 3, attributes: ['speed'], max_fps: 60, bits: 12 });
    expect(messages.subscribe(3)).toEqual({ type: 'subscribe', world: 3, attributes: [], max_fps: 30, bits: 16 });
  });

  it('hello sends the token only when there is one', () => {
    expect(messages.hello('abc')).toMatchObject({ type: 'hello', token: 'abc', protocol: 1 });
    expect(messages.hello(null)).not.toHaveProperty('token');
    expect(messages.hello(null).client.length).toBeLessThanOrEqual(64);
  });

  it('set needs a value; emitter_add leaves rate out for the default jet', () => {
    expect(() => messages.set(1, {})).toThrow(TypeError);
    expect(messages.set(1, { gravity_y: -3 })).toEqual({ type: 'set', world: 1, values: { gravity_y: -3 } });
    const add = messages.emitterAdd(1, { position: [0.8, 0.8, 0.3], direction: [0, -1, 0], radius: 0.05, speed: 1.5 });
    expect(add.emitter).toEqual({ position: [0.8, 0.8, 0.3], direction: [0, -1, 0], radius: 0.05, speed: 1.5 });
  });

  it('emitter_update accepts only emitter fields and rounds vectors to micrometres', () => {
    expect(messages.emitterUpdate(2, 7, { position: [0.1234567891, -0, 1], rate: 10 }))
      .toEqual({ type: 'emitter_update', world: 2, emitter: 7, changes: { position: [0.123457, 0, 1], rate: 10 } });
    expect(messages.emitterUpdate(2, 7, { temperature: 353.15 }).changes).toEqual({ temperature: 353.15 });
    expect(messages.emitterAdd(2, { position: [0, 1, 0], direction: [0, -1, 0], radius: 0.05, speed: 1, fluid: 1, temperature: 300 }).emitter)
      .toMatchObject({ fluid: 1, temperature: 300 });
    expect(() => messages.emitterUpdate(2, 7, { colour: 'red' })).toThrow(/no field colour/);
    expect(() => messages.emitterUpdate(2, 7, {})).toThrow(TypeError);
  });

  it('refuses vectors that JSON cannot carry and clamps collider velocity to ±1000 m/s', () => {
    expect(() => messages.colliderMove(1, 1, [NaN, 0, 0])).toThrow(/not a finite number/);
    expect(() => messages.colliderMove(1, 1, [0, 0])).toThrow(/3 components/);
    expect(messages.colliderMove(1, 1, [0, 0, 0], [5000, -2000, 3]).velocity).toEqual([1000, -1000, 3]);
  });

  it('reset sends values only when given', () => {
    expect(messages.reset(1)).toEqual({ type: 'reset', world: 1 });
    expect(messages.reset(1, { particle_spacing: 0.03 })).toEqual({ type: 'reset', world: 1, values: { particle_spacing: 0.03 } });
  });
});

describe('DragSender (collider_move / emitter_update throttling)', () => {
  it('sends at most one message per interval and keeps the newest position pending', () => {
    const sender = new DragSender(100);
    sender.start([0, 0, 0], 0);
    expect(sender.move([0.1, 0, 0], 50)).toBeNull(); // too soon
    expect(sender.move([0.2, 0, 0], 80)).toBeNull();
    expect(sender.pendingDue(80)).toBe(20);
    const message = sender.flush(100);
    expect(message.position).toEqual([0.2, 0, 0]);
    expect(sender.flush(150)).toBeNull(); // nothing pending
  });

  it('estimates the velocity from the displacement since the last message', () => {
    const sender = new DragSender(100);
    sender.start([1, 1, 1], 1000);
    const message = sender.move([1.5, 1, 0.8], 1250);
    expect(message.velocity[0]).toBeCloseTo(2, 12);
    expect(message.velocity[1]).toBeCloseTo(0, 12);
    expect(message.velocity[2]).toBeCloseTo(-0.8, 12);
  });

  it('sends no more than 30 messages in a second of 60 Hz pointer moves at 30/s', () => {
    const sender = new DragSender(1000 / 30);
    sender.start([0, 0, 0], 0);
    let sent = 0;
    for (let i = 1; i <= 60; i++) if (sender.move([i / 100, 0, 0], (i * 1000) / 60)) sent += 1;
    expect(sent).toBeLessThanOrEqual(30);
    expect(sent).toBeGreaterThanOrEqual(29);
  });

  it('ends with the last position and a zero velocity', () => {
    const sender = new DragSender(100);
    sender.start([0, 0, 0], 0);
    sender.move([0.3, 0.2, 0.1], 10); // pending
    expect(sender.end(20)).toEqual({ position: [0.3, 0.2, 0.1], velocity: [0, 0, 0] });
    expect(new DragSender().end(0)).toBeNull();
  });
});

// Shareable links: world, token, attribute, bits and fps parsed strictly; the room link drops the token.
import { describe, it, expect } from 'vitest';
import { LOOPBACK_WARNING, parseLink, roomBase, roomLink, sceneAttribute, socketUrl, withWorld } from '../src/links.js';

describe('parseLink', () => {
  it('reads world, token, attribute, bits and fps', () => {
    expect(parseLink('?world=3&token=s3cr%C3%A9t&attribute=speed&bits=12&fps=60')).toEqual({
      world: 3, token: 's3crét', attribute: 'speed', bits: 12, maxFps: 60, render: null, server: null,
    });
  });

  it('gives the defaults for an empty query', () => {
    expect(parseLink('')).toEqual({ world: null, token: null, attribute: null, bits: 16, maxFps: 30, render: null, server: null });
  });

  it('drops values that are not valid instead of guessing', () => {
    const link = parseLink('?world=0&attribute=pressure&bits=9&fps=500&token=');
    expect(link).toMatchObject({ world: null, attribute: null, bits: 16, maxFps: 30, token: null });
    expect(parseLink('?world=1.5').world).toBeNull();
    expect(parseLink('?world=-2').world).toBeNull();
    expect(parseLink('?world=4294967296').world).toBeNull();
    expect(parseLink('?bits=16x').bits).toBe(16);
    expect(parseLink(`?token=${'a'.repeat(257)}`).token).toBeNull();
  });

  it('accepts every attribute of the protocol and the bit range 10-16', () => {
    for (const a of ['speed', 'density', 'temperature', 'fluid']) expect(parseLink(`?attribute=${a}`).attribute).toBe(a);
    expect(parseLink('?bits=10').bits).toBe(10);
    expect(parseLink('?bits=16').bits).toBe(16);
  });

  it('takes the particle render mode points or quads only', () => {
    expect(parseLink('?render=points').render).toBe('points');
    expect(parseLink('?render=quads').render).toBe('quads');
    expect(parseLink('?render=voxels').render).toBeNull();
  });

  it('accepts only a host:port for the dev server option', () => {
    expect(parseLink('?server=127.0.0.1:8080').server).toBe('127.0.0.1:8080');
    expect(parseLink('?server=evil.example/x?y').server).toBeNull();
  });
});

describe('links for sharing', () => {
  it('gives the room a link without the token', () => {
    const link = roomLink('http://gpu-box:8080/?world=2&token=abc&attribute=speed#x', 5);
    expect(link).toBe('http://gpu-box:8080/?world=5');
    expect(link).not.toContain('abc');
  });

  it('keeps the token and options when only the world changes', () => {
    expect(withWorld('http://h/?token=abc&world=1&bits=12', 7)).toBe('http://h/?token=abc&world=7&bits=12');
  });

  it('connects to the page host with ws or wss', () => {
    expect(socketUrl({ protocol: 'http:', host: '127.0.0.1:8080' })).toBe('ws://127.0.0.1:8080/');
    expect(socketUrl({ protocol: 'https:', host: 'fluid.example' })).toBe('wss://fluid.example/');
    expect(socketUrl({ protocol: 'http:', host: 'localhost:5173' }, '127.0.0.1:8080')).toBe('ws://127.0.0.1:8080/');
  });
});

describe('roomBase', () => {
  const page = 'http://127.0.0.1:8080/?world=1&token=abc';

  it('takes the server\'s --public-url first, wherever the page was opened', () => {
    const room = { url: 'https://fc.example.org/room/', source: 'public_url' };
    expect(roomBase(room, page)).toEqual({ base: 'https://fc.example.org/room/', warning: null });
    expect(roomBase(room, 'http://gpu-box:8080/')).toEqual({ base: 'https://fc.example.org/room/', warning: null });
    expect(roomLink(roomBase(room, page).base, 3)).toBe('https://fc.example.org/room/?world=3');
  });

  it('keeps a page address the room can reach (a tunnel\'s, the host\'s name) over the server\'s interface address', () => {
    const room = { url: 'http://192.168.1.20:8080/', source: 'interface' };
    expect(roomBase(room, 'https://abc.trycloudflare.com/?world=1')).toEqual({ base: 'https://abc.trycloudflare.com/?world=1', warning: null });
    expect(roomBase(room, page)).toEqual({ base: 'http://192.168.1.20:8080/', warning: null });
  });

  it('warns when only loopback is possible, also for an older server that sends no room', () => {
    const room = { url: 'http://127.0.0.1:8080/', source: 'loopback' };
    expect(roomBase(room, page)).toEqual({ base: page, warning: LOOPBACK_WARNING });
    expect(roomBase(null, 'http://localhost:8080/').warning).toBe(LOOPBACK_WARNING);
    expect(roomBase(null, 'http://[::1]:8080/').warning).toBe(LOOPBACK_WARNING);
    expect(roomBase({ url: 'javascript:alert(1)', source: 'public_url' }, page).warning).toBe(LOOPBACK_WARNING);
    expect(LOOPBACK_WARNING).toMatch(/--public-url/);
  });
});

describe('sceneAttribute', () => {
  it('gives the scene\'s colour mode: an attribute, null for plain, undefined when it names none or an unknown one', () => {
    expect(sceneAttribute({ colour: 'fluid' })).toBe('fluid');
    expect(sceneAttribute({ colour: 'speed' })).toBe('speed');
    expect(sceneAttribute({ colour: 'plain' })).toBeNull();
    for (const none of [null, undefined, {}, { colour: 'rainbow' }, 'fluid']) expect(sceneAttribute(none)).toBeUndefined();
  });
});

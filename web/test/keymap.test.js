// Keyboard shortcuts: each key's action, and the events left alone (typing in a field, modifiers, repeats, Space on a button).
import { describe, it, expect } from 'vitest';
import { COLOUR_KEYS, SHORTCUTS, isTypingTarget, shortcutFor } from '../src/ui/keymap.js';

const canvas = { tagName: 'CANVAS' };
const key = (k, extra = {}) => ({ key: k, ctrlKey: false, metaKey: false, altKey: false, repeat: false, target: canvas, ...extra });

describe('shortcutFor', () => {
  it('maps the transport keys', () => {
    expect(shortcutFor(key(' '))).toEqual({ action: 'playPause' });
    expect(shortcutFor(key('.'))).toEqual({ action: 'step' });
    expect(shortcutFor(key('r'))).toEqual({ action: 'reset' });
    expect(shortcutFor(key('R'))).toEqual({ action: 'reset' });
  });

  it('maps F, P, ? and Esc', () => {
    expect(shortcutFor(key('f'))).toEqual({ action: 'frame' });
    expect(shortcutFor(key('F'))).toEqual({ action: 'frame' });
    expect(shortcutFor(key('p'))).toEqual({ action: 'plots' });
    expect(shortcutFor(key('?'))).toEqual({ action: 'help' });
    expect(shortcutFor(key('Escape'))).toEqual({ action: 'cancel' });
  });

  it('maps 1-5 to plain, speed, density, temperature, fluid', () => {
    expect(['1', '2', '3', '4', '5'].map((k) => shortcutFor(key(k)).value)).toEqual([null, 'speed', 'density', 'temperature', 'fluid']);
    expect(shortcutFor(key('1')).action).toBe('colour');
    expect(shortcutFor(key('6'))).toBeNull();
    expect(shortcutFor(key('0'))).toBeNull();
  });

  it('ignores every key while typing in an input, select, textarea or editable element', () => {
    for (const target of [{ tagName: 'INPUT' }, { tagName: 'SELECT' }, { tagName: 'TEXTAREA' }, { tagName: 'DIV', isContentEditable: true }]) {
      for (const k of [' ', '.', 'r', 'f', '1', '?', 'Escape']) expect(shortcutFor(key(k, { target }))).toBeNull();
    }
  });

  it('leaves the browser its Ctrl/Cmd/Alt shortcuts (Ctrl+R reloads, it does not reset)', () => {
    expect(shortcutFor(key('r', { ctrlKey: true }))).toBeNull();
    expect(shortcutFor(key('r', { metaKey: true }))).toBeNull();
    expect(shortcutFor(key('1', { altKey: true }))).toBeNull();
  });

  it('ignores auto-repeat except Esc, Space on a focused button, unknown keys and non-events', () => {
    expect(shortcutFor(key('.', { repeat: true }))).toBeNull();
    expect(shortcutFor(key('Escape', { repeat: true }))).toEqual({ action: 'cancel' });
    expect(shortcutFor(key(' ', { target: { tagName: 'BUTTON' } }))).toBeNull();
    expect(shortcutFor(key('.', { target: { tagName: 'BUTTON' } }))).toEqual({ action: 'step' });
    expect(shortcutFor(key('x'))).toBeNull();
    expect(shortcutFor(key('Shift'))).toBeNull();
    expect(shortcutFor(null)).toBeNull();
    expect(shortcutFor({})).toBeNull();
  });
});

describe('the help table', () => {
  it('lists every action shortcutFor can return, with its keys mapping back to it', () => {
    const spelled = { Space: ' ', Esc: 'Escape' };
    for (const row of SHORTCUTS) {
      for (const k of row.keys) expect(shortcutFor(key(spelled[k] ?? k)).action).toBe(row.action);
    }
    expect(Object.keys(COLOUR_KEYS)).toEqual(['1', '2', '3', '4', '5']);
  });

  it('isTypingTarget is false for no target and plain elements', () => {
    expect(isTypingTarget(null)).toBe(false);
    expect(isTypingTarget({ tagName: 'BUTTON' })).toBe(false);
  });
});

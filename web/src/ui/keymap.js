// The viewer's keyboard shortcuts as data: which key does what, and which key events are left alone (typing, modifiers).

/** Colour modes by digit: 1 plain, 2 speed, 3 density, 4 temperature, 5 fluid. */
export const COLOUR_KEYS = { 1: null, 2: 'speed', 3: 'density', 4: 'temperature', 5: 'fluid' };

/** The help overlay's table, in order: keys shown, action, what it does. */
export const SHORTCUTS = [
  { keys: ['Space'], action: 'playPause', text: 'Play / pause' },
  { keys: ['.'], action: 'step', text: 'Step one frame (paused)' },
  { keys: ['R'], action: 'reset', text: 'Reset the world to its scene' },
  { keys: ['F'], action: 'frame', text: 'Frame the fluid: fit the camera to the particles' },
  { keys: ['1', '2', '3', '4', '5'], action: 'colour', text: 'Colour: plain, speed, density, temperature, fluid' },
  { keys: ['P'], action: 'plots', text: 'Show / hide the live plots' },
  { keys: ['?'], action: 'help', text: 'Show / hide this help' },
  { keys: ['Esc'], action: 'cancel', text: 'Close overlays, stop placing an emitter' },
];

const TYPING_TAGS = new Set(['INPUT', 'SELECT', 'TEXTAREA']);

/** True when keys typed at `target` belong to it: form fields and editable text. */
export function isTypingTarget(target) {
  if (!target) return false;
  return TYPING_TAGS.has(target.tagName) || target.isContentEditable === true;
}

/**
 * The shortcut of a keydown event ({key, ctrlKey, metaKey, altKey, repeat, target}) as
 * {action, value?}, or null: none while typing in a field, with Ctrl/Cmd/Alt held (the
 * browser's own shortcuts, e.g. Ctrl+R), for auto-repeat (except Esc), or for Space on a
 * focused button (the button's own click).
 */
export function shortcutFor(event) {
  if (!event || typeof event.key !== 'string') return null;
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  if (isTypingTarget(event.target)) return null;
  const key = event.key;
  if (key === 'Escape') return { action: 'cancel' };
  if (event.repeat) return null;
  if (key === ' ' || key === 'Spacebar') {
    const tag = event.target?.tagName;
    return tag === 'BUTTON' || tag === 'SUMMARY' ? null : { action: 'playPause' };
  }
  if (key === '.') return { action: 'step' };
  if (key === '?') return { action: 'help' };
  if (Object.hasOwn(COLOUR_KEYS, key)) return { action: 'colour', value: COLOUR_KEYS[key] };
  switch (key.toLowerCase()) {
    case 'r': return { action: 'reset' };
    case 'f': return { action: 'frame' };
    case 'p': return { action: 'plots' };
    default: return null;
  }
}

// Keyboard shortcuts: one keydown listener on the window that calls the viewer's action for each shortcut of keymap.js.
import { shortcutFor } from './keymap.js';

/**
 * actions: {playPause, step, reset, frame, colour(attribute|null), plots, help, cancel}; each
 * returns nothing. A key with a shortcut has its default prevented (Space would scroll or press
 * the focused element). Returns a function that removes the listener.
 */
export function installShortcuts(actions, target = window) {
  const onKey = (event) => {
    const shortcut = shortcutFor(event);
    if (!shortcut || !actions[shortcut.action]) return;
    event.preventDefault();
    actions[shortcut.action](shortcut.value);
  };
  target.addEventListener('keydown', onKey);
  return () => target.removeEventListener('keydown', onKey);
}

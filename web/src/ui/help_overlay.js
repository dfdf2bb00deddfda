// The help overlay (key ?): the keyboard shortcuts and the mouse controls, closed by Esc, ? or a click outside the card.
import { el } from '../util/dom.js';
import { SHORTCUTS } from './keymap.js';

const MOUSE = [
  ['Drag', 'Orbit the camera'],
  ['Right-drag / two fingers', 'Pan'],
  ['Wheel / pinch', 'Zoom'],
  ['Click a particle', 'Show its id, velocity, density, temperature'],
  ['Drag a sphere or box', 'Move the collider through the fluid'],
];

export class HelpOverlay {
  constructor(host) {
    const rows = (list) => list.map(([keys, text]) => el('tr', {}, [el('td', {}, keys), el('td', { text })]));
    const keyRows = SHORTCUTS.map((s) => [s.keys.map((k) => el('kbd', { text: k })), s.text]);
    const mouseRows = MOUSE.map(([what, text]) => [[el('span', { className: 'mouse', text: what })], text]);
    const close = el('button', { type: 'button', className: 'close', text: '✕', title: 'Close (Esc)', testid: 'help-close', onclick: () => this.hide() });
    this.card = el('div', { className: 'help-card', role: 'dialog', 'aria-label': 'Keyboard shortcuts' }, [
      close,
      el('h2', { text: 'Keyboard and mouse' }),
      el('table', {}, [el('tbody', {}, rows(keyRows))]),
      el('table', {}, [el('tbody', {}, rows(mouseRows))]),
      el('p', { className: 'muted', text: 'Shortcuts are off while typing in a field. Watchers can orbit, colour, plot and pick; the rest needs control.' }),
    ]);
    this.element = el('div', { testid: 'help-overlay', className: 'help-overlay', hidden: true }, [this.card]);
    this.element.addEventListener('click', (event) => {
      if (event.target === this.element) this.hide();
    });
    host.append(this.element);
  }

  get visible() {
    return !this.element.hidden;
  }

  toggle(show = !this.visible) {
    this.element.hidden = !show;
  }

  hide() {
    this.element.hidden = true;
  }
}

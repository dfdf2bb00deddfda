// The room link popover: the world's link without the token as text and as a QR code, copied to the clipboard with a "copied" confirmation; a warning when only this computer can open it.
import { el } from '../util/dom.js';
import { qrSvg } from './qr.js';

const COPIED_MS = 4000;
const SHOW_WAIT_MS = 300;

/**
 * show(link, anchor) opens the popover under `anchor` (the Room link button) and copies the link.
 * Closed by its ✕, Esc (hide()) or a click elsewhere. clipboard: navigator.clipboard or null.
 */
export class RoomLinkPopover {
  constructor(host, { clipboard = () => (navigator.clipboard && window.isSecureContext ? navigator.clipboard : null) } = {}) {
    this.clipboard = clipboard;
    this.link = null;
    this.timer = null;
    this.qr = el('div', { className: 'qr', testid: 'room-link-qr' });
    this.text = el('input', { type: 'text', readOnly: true, className: 'link-text', testid: 'room-link-text', 'aria-label': 'Room link', onfocus: () => this.text.select() });
    this.copy = el('button', { type: 'button', testid: 'room-link-copy', text: 'Copy', onclick: () => this.copyLink() });
    this.note = el('span', { className: 'copied', testid: 'room-link-copied', 'aria-live': 'polite' });
    this.warning = el('p', { className: 'warning', testid: 'room-link-warning', role: 'alert', hidden: true });
    const close = el('button', { type: 'button', className: 'close', text: '✕', title: 'Close (Esc)', onclick: () => this.hide() });
    this.element = el('div', { className: 'room-link-popover', testid: 'room-link-popover', hidden: true }, [
      el('div', { className: 'head' }, [el('strong', { text: 'Room link' }), close]),
      el('p', { className: 'muted', text: 'Scan or open this link to watch this world (it carries no control token).' }),
      this.warning,
      this.qr,
      el('div', { className: 'row' }, [this.text, this.copy]),
      this.note,
    ]);
    host.append(this.element);
    document.addEventListener('pointerdown', (event) => {
      if (this.visible && !this.element.contains(event.target) && !this.anchor?.contains(event.target)) this.hide();
    }, { capture: true });
  }

  get visible() {
    return !this.element.hidden;
  }

  /** warning: why the room may not open the link (links.js roomBase), or null. */
  async show(link, anchor = null, warning = null) {
    this.anchor = anchor;
    this.warning.textContent = warning ?? '';
    this.warning.hidden = !warning;
    const changed = link !== this.link;
    this.link = link;
    this.text.value = link;
    // Copy first (still inside the click, which the clipboard needs) and open once the link is on
    // the clipboard, or after SHOW_WAIT_MS at the latest.
    const copying = this.copyLink();
    await Promise.race([copying, new Promise((r) => { setTimeout(r, SHOW_WAIT_MS); })]);
    this.element.hidden = false;
    this.place();
    if (changed) {
      this.qr.replaceChildren();
      try {
        const svg = await qrSvg(link);
        if (this.link === link) this.qr.innerHTML = svg; // generated from our own link by the qrcode package
      } catch (error) {
        this.qr.textContent = `No QR code: ${error.message}`;
      }
    }
  }

  place() {
    if (!this.anchor) return;
    const box = this.anchor.getBoundingClientRect();
    const width = this.element.offsetWidth || 260;
    this.element.style.top = `${Math.round(box.bottom + 6)}px`;
    this.element.style.left = `${Math.round(Math.max(10, Math.min(window.innerWidth - width - 10, box.left)))}px`;
  }

  async copyLink() {
    const clipboard = this.clipboard();
    const link = this.link;
    try {
      if (!clipboard) throw new Error('no clipboard');
      await clipboard.writeText(link);
      this.confirm('Copied', 'ok');
    } catch {
      // No async clipboard (a page on http:// other than localhost): copy the selected field.
      this.element.hidden = false;
      this.place();
      this.text.focus();
      this.text.select();
      let copied = false;
      try {
        copied = document.execCommand('copy');
      } catch {
        copied = false;
      }
      if (copied) this.confirm('Copied', 'ok');
      else this.confirm('Select the link and press Ctrl+C to copy it', 'manual');
    }
  }

  confirm(text, state) {
    this.note.textContent = text;
    this.note.dataset.state = state;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => { this.note.textContent = ''; }, COPIED_MS);
  }

  hide() {
    this.element.hidden = true;
  }
}

// The error toast: shows a server (or client) error message as is, for a few seconds; the newest replaces the last.
const SHOW_MS = 8000;

export class Toast {
  constructor(element) {
    this.element = element;
    this.timer = null;
    element.hidden = true;
    element.addEventListener('click', () => this.hide());
  }

  /** error: {code, field, message}; the toast's text is exactly the message. */
  show(error) {
    this.element.textContent = error.message;
    this.element.title = error.field ? `${error.code} (${error.field})` : error.code;
    this.element.dataset.code = error.code;
    this.element.hidden = false;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.hide(), SHOW_MS);
  }

  hide() {
    this.element.hidden = true;
  }
}

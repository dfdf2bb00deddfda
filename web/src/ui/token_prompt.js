// The watcher's note: says why this page only watches (no token, or the token was refused) and lets a person type the token.
import { el } from '../util/dom.js';

export class TokenPrompt {
  /** submit(token): say hello again with it. */
  constructor(element, { submit }) {
    this.element = element;
    this.message = el('span', { testid: 'watch-message' });
    this.input = el('input', { type: 'password', testid: 'token-input', placeholder: 'control token', autocomplete: 'off', 'aria-label': 'Control token' });
    this.use = el('button', { type: 'button', testid: 'btn-token', text: 'Take control' });
    this.form = el('form', { className: 'token-form' }, [this.input, this.use]);
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      const token = this.input.value.trim();
      if (token) submit(token);
      this.input.value = '';
    });
    this.use.addEventListener('click', () => this.form.requestSubmit());
    element.replaceChildren(this.message, this.form);
  }

  /** role: 'watch' | 'control' | null; refused: the last token did not match. */
  update(role, refused) {
    this.element.hidden = role !== 'watch';
    this.element.classList.toggle('refused', refused);
    this.message.textContent = refused ? 'The control token was refused: watching only.' : 'Watching: this link has no control token.';
  }
}

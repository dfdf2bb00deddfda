// The collider list: the world's movable spheres and boxes with a remove button, and buttons to add a sphere or a box.
import { el } from '../util/dom.js';

/** A collider that fits the domain: over the floor, a tenth of its smallest extent in size; spheres left of the middle, boxes right. */
export function defaultCollider(domain, shape) {
  const size = [0, 1, 2].map((i) => domain.max[i] - domain.min[i]);
  const r = 0.1 * Math.min(...size.filter((s) => s > 0)); // a 2D world's z has no extent
  const across = shape === 'sphere' ? 0.35 : 0.65;
  const position = [domain.min[0] + across * size[0], domain.min[1] + 0.6 * size[1], 0.5 * (domain.min[2] + domain.max[2])];
  return shape === 'sphere' ? { shape, position, radius: r } : { shape, position, half_extents: [r, r, r] };
}

function describe(collider) {
  const p = collider.position.map((x) => x.toFixed(2)).join(', ');
  if (collider.shape === 'sphere') return `sphere r ${collider.radius.toFixed(3)} m at (${p})`;
  const turned = collider.rotation && collider.rotation.some((d) => Math.abs(d) > 0.05)
    ? `, turned ${collider.rotation.map((d) => `${d.toFixed(0)}°`).join(' ')}` : '';
  return `box ${collider.half_extents.map((x) => (2 * x).toFixed(2)).join('×')} m at (${p})${turned}`;
}

export class ColliderList {
  /** actions: add(shape), remove(id) */
  constructor(element, actions) {
    this.element = element;
    this.list = el('div', { className: 'items' });
    this.addSphere = el('button', { type: 'button', testid: 'btn-add-sphere', text: '+ Sphere', title: 'Add a sphere to drag through the fluid', onclick: () => actions.add('sphere') });
    this.addBox = el('button', { type: 'button', testid: 'btn-add-box', text: '+ Box', title: 'Add a box obstacle (drag it to move it)', onclick: () => actions.add('box') });
    this.actions = actions;
    element.replaceChildren(el('div', { className: 'title' }, [el('span', { text: 'Colliders' }), el('span', { className: 'add' }, [this.addSphere, this.addBox])]), this.list);
    this.key = null;
  }

  update(colliders = [], canControl) {
    this.addSphere.disabled = !canControl;
    this.addBox.disabled = !canControl;
    const key = JSON.stringify([colliders.map((c) => [c.id, describe(c)]), canControl]);
    if (key === this.key) return;
    this.key = key;
    if (colliders.length === 0) {
      this.list.replaceChildren(el('div', { className: 'empty', text: canControl ? 'None. Drag a collider to move it.' : 'None.' }));
      return;
    }
    this.list.replaceChildren(...colliders.map((c) => el('div', { className: 'collider', 'data-collider-id': String(c.id) }, [
      el('span', { text: `#${c.id} ${describe(c)}` }),
      el('button', { type: 'button', className: 'remove', text: '✕', title: 'Remove this collider', disabled: !canControl, onclick: () => this.actions.remove(c.id) }),
    ])));
  }
}

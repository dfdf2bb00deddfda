// Pointer interaction in the 3D view: drag colliders and emitter markers, and click a surface to place an emitter.
import { Plane, Raycaster, Vector2, Vector3 } from 'three';
import { DragSender } from '../net/drag_sender.js';
import { clampIntoDomain, emitterAtHit, surfaceHit } from './surface_pick.js';

const CLICK_SLOP_PX = 5;
const DRAG_MESSAGES_PER_SECOND = 30; // well under the protocol's 100 messages per second

/**
 * world: {domain(), colliders(), emitterDefaults(), canControl()}; send: {moveCollider(id,
 * position, velocity), moveEmitter(id, position), addEmitter(emitter)}. Register before the
 * orbit controls: a grab disables them for the drag.
 */
export class Interaction {
  constructor(viewer, world, send, { onPlacingChange = () => {} } = {}) {
    Object.assign(this, { viewer, world, send, onPlacingChange });
    this.canvas = viewer.canvas;
    this.raycaster = new Raycaster();
    this.placing = false;
    this.drag = null;
    this.down = null;
    this.canvas.addEventListener('pointerdown', (e) => this.pointerDown(e), { capture: true });
    this.canvas.addEventListener('pointermove', (e) => this.pointerMove(e));
    this.canvas.addEventListener('pointerup', (e) => this.pointerUp(e));
    this.canvas.addEventListener('pointercancel', (e) => this.pointerUp(e, true));
  }

  /** Turns emitter placing on or off (one click places one emitter, then it is off; Esc cancels). */
  setPlacing(placing) {
    if (placing === this.placing) return;
    this.placing = placing;
    this.canvas.style.cursor = placing ? 'crosshair' : '';
    this.onPlacingChange(placing);
  }

  rayAt(event) {
    const rect = this.canvas.getBoundingClientRect();
    const ndc = new Vector2(((event.clientX - rect.left) / rect.width) * 2 - 1, -((event.clientY - rect.top) / rect.height) * 2 + 1);
    this.raycaster.setFromCamera(ndc, this.viewer.camera);
    return this.raycaster.ray;
  }

  grabbable(event) {
    this.rayAt(event); // sets this.raycaster's ray
    const hit = this.raycaster.intersectObjects(this.viewer.objects.pickables(), true)[0];
    return hit ? { ...hit.object.userData, point: hit.point } : null;
  }

  pointerDown(event) {
    if (event.button !== 0 || !this.world.canControl()) return;
    const grab = this.grabbable(event);
    if (grab) {
      this.startDrag(grab, event);
      return;
    }
    if (this.placing) this.down = { x: event.clientX, y: event.clientY };
  }

  startDrag(grab, event) {
    const entry = grab.kind === 'collider' ? this.world.colliders().find((c) => c.id === grab.id) : null;
    const object = (grab.kind === 'collider' ? this.viewer.objects.colliders : this.viewer.objects.emitters).get(grab.id);
    if (!object) return;
    const centre = object.mesh.position.clone();
    const normal = this.viewer.camera.getWorldDirection(new Vector3());
    const plane = new Plane().setFromNormalAndCoplanarPoint(normal, centre);
    const onPlane = this.rayAt(event).intersectPlane(plane, new Vector3());
    if (!onPlane) return;
    const margin = entry
      ? (entry.shape === 'sphere' ? entry.radius : Math.max(...entry.half_extents))
      : this.world.emitterDefaults().offset;
    const sender = new DragSender(1000 / DRAG_MESSAGES_PER_SECOND);
    sender.start(centre.toArray(), performance.now());
    this.drag = { kind: grab.kind, id: grab.id, plane, offset: centre.clone().sub(onPlane), margin, sender, timer: null };
    this.viewer.objects.hold(grab.kind, grab.id, true);
    if (this.viewer.controls) this.viewer.controls.enabled = false;
    this.canvas.setPointerCapture(event.pointerId);
    this.canvas.style.cursor = 'grabbing';
    event.preventDefault();
  }

  pointerMove(event) {
    const drag = this.drag;
    if (!drag) {
      if (!this.placing && this.world.canControl()) this.canvas.style.cursor = this.grabbable(event) ? 'grab' : '';
      return;
    }
    const onPlane = this.rayAt(event).intersectPlane(drag.plane, new Vector3());
    if (!onPlane) return;
    const position = clampIntoDomain(onPlane.add(drag.offset).toArray(), this.world.domain(), drag.margin);
    this.viewer.objects.preview(drag.kind, drag.id, position);
    this.deliver(drag, drag.sender.move(position, performance.now()));
    clearTimeout(drag.timer);
    const due = drag.sender.pendingDue(performance.now());
    if (due !== null) drag.timer = setTimeout(() => this.deliver(drag, drag.sender.flush(performance.now())), due);
  }

  deliver(drag, message) {
    if (!message) return;
    if (drag.kind === 'collider') this.send.moveCollider(drag.id, message.position, message.velocity);
    else this.send.moveEmitter(drag.id, message.position);
  }

  pointerUp(event, cancelled = false) {
    const drag = this.drag;
    if (drag) {
      this.drag = null;
      clearTimeout(drag.timer);
      this.deliver(drag, drag.sender.end(performance.now()));
      this.viewer.objects.hold(drag.kind, drag.id, false);
      if (this.viewer.controls) this.viewer.controls.enabled = true;
      this.canvas.style.cursor = this.placing ? 'crosshair' : '';
      return;
    }
    const down = this.down;
    this.down = null;
    if (cancelled || !down || !this.placing) return;
    if (Math.hypot(event.clientX - down.x, event.clientY - down.y) > CLICK_SLOP_PX) return; // an orbit drag
    this.placeAt(event);
  }

  placeAt(event) {
    const domain = this.world.domain();
    if (!domain) return;
    const hit = surfaceHit(this.rayAt(event).clone(), domain, this.world.colliders());
    if (!hit) return;
    const defaults = this.world.emitterDefaults();
    const place = emitterAtHit(hit, domain, defaults);
    this.send.addEmitter({ ...place, radius: defaults.radius, speed: defaults.speed });
    this.setPlacing(false);
  }
}

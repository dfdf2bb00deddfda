// Click-to-pick in the 3D view: a click (not a drag, not while placing an emitter or dragging a collider) finds the particle under the pointer.
import { Raycaster, Vector2 } from 'three';
import { nearestOnRay } from './particle_pick.js';

const CLICK_SLOP_PX = 5;
const NEAR_MISS_PX = 6; // a click this close to a particle's centre picks it even between spheres

/**
 * viewer: the Viewer; interaction: the Interaction (its placing / drag state); frame(): the shown
 * decoded frame; radius(): the particles' radius in m; onPick(pick | null): pick is nearestOnRay's
 * result. Register after the Interaction so that its pointerdown has started any drag.
 */
export class ParticlePicker {
  constructor(viewer, interaction, { frame, radius, onPick }) {
    Object.assign(this, { viewer, interaction, frame, radius, onPick });
    this.raycaster = new Raycaster();
    this.down = null;
    const canvas = viewer.canvas;
    canvas.addEventListener('pointerdown', (event) => {
      const busy = event.button !== 0 || interaction.placing || interaction.drag;
      this.down = busy ? null : { x: event.clientX, y: event.clientY };
    });
    canvas.addEventListener('pointerup', (event) => {
      const down = this.down;
      this.down = null;
      if (!down || interaction.placing || Math.hypot(event.clientX - down.x, event.clientY - down.y) > CLICK_SLOP_PX) return;
      this.onPick(this.pickAt(event.clientX, event.clientY));
    });
    canvas.addEventListener('pointercancel', () => { this.down = null; });
  }

  /** The particle under the client point (x, y), or null. */
  pickAt(x, y) {
    const canvas = this.viewer.canvas;
    const rect = canvas.getBoundingClientRect();
    const ndc = new Vector2(((x - rect.left) / rect.width) * 2 - 1, -((y - rect.top) / rect.height) * 2 + 1);
    this.raycaster.setFromCamera(ndc, this.viewer.camera);
    const { origin, direction } = this.raycaster.ray;
    const camera = this.viewer.camera;
    const maxAngle = (NEAR_MISS_PX / (rect.height / 2)) * Math.tan((camera.fov * Math.PI) / 360);
    return nearestOnRay(this.frame(), origin.toArray(), direction.toArray(), this.radius(), maxAngle);
  }
}

// The marker of the picked particle: a bright ring-and-dot drawn over the fluid (no depth test) at its position.
import { Group, Mesh, MeshBasicMaterial, RingGeometry, SphereGeometry } from 'three';

const RING = new MeshBasicMaterial({ color: '#ffe066', depthTest: false, transparent: true, opacity: 0.95 });
const DOT = new MeshBasicMaterial({ color: '#ffffff', depthTest: false, transparent: true, opacity: 0.9 });

export class PickMarker {
  constructor() {
    this.group = new Group();
    this.ring = new Mesh(new RingGeometry(1.6, 2.2, 40), RING);
    this.dot = new Mesh(new SphereGeometry(0.5, 12, 8), DOT);
    this.ring.renderOrder = 4;
    this.dot.renderOrder = 4;
    this.group.add(this.ring, this.dot);
    this.group.visible = false;
    // The ring faces the camera: turned just before it is drawn (the group itself is not rotated).
    this.ring.onBeforeRender = (renderer, scene, camera) => {
      this.ring.quaternion.copy(camera.quaternion);
      this.ring.updateMatrixWorld();
    };
  }

  /** Shows the marker at `position` (m), sized for particles of `radius` m. */
  show(position, radius) {
    this.group.position.fromArray(position);
    this.group.scale.setScalar(radius);
    this.group.visible = true;
  }

  hide() {
    this.group.visible = false;
  }
}

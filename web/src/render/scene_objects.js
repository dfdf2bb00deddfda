// Colliders (spheres, boxes) and emitter markers (a cone along the jet and a disc of its radius), kept in sync with state.
import {
  BoxGeometry, CircleGeometry, ConeGeometry, DoubleSide, Group, Mesh, MeshBasicMaterial, MeshStandardMaterial,
  Quaternion, SphereGeometry, Vector3,
} from 'three';
import { colliderRotation } from '../util/pose.js';
import { heatTint } from './heat_tint.js';

const UP = new Vector3(0, 1, 0);
const COLLIDER_COLOUR = '#d9a05b';
const colliderMaterial = () => new MeshStandardMaterial({ color: COLLIDER_COLOUR, roughness: 0.45, metalness: 0.1 });
// Emitter markers are drawn over the fluid (no depth test) so that they can always be seen and grabbed.
const EMITTER_MATERIAL = new MeshStandardMaterial({ color: '#ff6b5e', roughness: 0.5, emissive: '#7a1d14', depthTest: false, transparent: true, opacity: 0.9 });
const EMITTER_DISC_MATERIAL = new MeshBasicMaterial({ color: '#ffb0a8', transparent: true, opacity: 0.5, side: DoubleSide, depthWrite: false, depthTest: false });

function colliderMesh(collider) {
  const geometry = collider.shape === 'sphere'
    ? new SphereGeometry(collider.radius, 32, 16)
    : new BoxGeometry(...collider.half_extents.map((h) => 2 * h));
  return new Mesh(geometry, colliderMaterial()); // its own material: tinted by its temperature
}

function emitterMarker(emitter, size) {
  const group = new Group();
  const cone = new Mesh(new ConeGeometry(size * 0.45, size, 16), EMITTER_MATERIAL);
  cone.position.y = size / 2;
  const disc = new Mesh(new CircleGeometry(emitter.radius, 32), EMITTER_DISC_MATERIAL);
  disc.rotation.x = -Math.PI / 2;
  cone.renderOrder = 3;
  disc.renderOrder = 3;
  group.add(cone, disc);
  return group;
}

/** Objects keyed by id; a mesh is rebuilt when its shape changes and moved otherwise. */
export class SceneObjects {
  constructor() {
    this.group = new Group();
    this.colliders = new Map(); // id -> {mesh, key}
    this.emitters = new Map();
    this.held = new Set(); // 'collider:ID' / 'emitter:ID' being dragged: state positions are ignored
    this.markerSize = 0.05;
  }

  sync(colliders = [], emitters = []) {
    this.syncKind(this.colliders, colliders, 'collider', (c) => `${c.shape}:${c.radius}:${c.half_extents}`, colliderMesh);
    for (const collider of colliders) {
      const { mesh } = this.colliders.get(collider.id);
      mesh.rotation.copy(colliderRotation(collider));
      mesh.material.color.set(heatTint(COLLIDER_COLOUR, collider.temperature, collider.heat_transfer));
    }
    this.syncKind(this.emitters, emitters, 'emitter', (e) => `${e.radius}:${this.markerSize}`, (e) => emitterMarker(e, this.markerSize));
    for (const emitter of emitters) {
      const object = this.emitters.get(emitter.id).mesh;
      object.quaternion.copy(new Quaternion().setFromUnitVectors(UP, new Vector3().fromArray(emitter.direction).normalize()));
    }
  }

  syncKind(map, items, kind, shapeKey, build) {
    const seen = new Set();
    for (const item of items) {
      seen.add(item.id);
      const key = shapeKey(item);
      let entry = map.get(item.id);
      if (!entry || entry.key !== key) {
        if (entry) this.remove(entry);
        entry = { mesh: build(item), key };
        entry.mesh.userData = { kind, id: item.id };
        entry.mesh.traverse((child) => { child.userData = entry.mesh.userData; });
        map.set(item.id, entry);
        this.group.add(entry.mesh);
      }
      if (!this.held.has(`${kind}:${item.id}`)) entry.mesh.position.fromArray(item.position);
    }
    for (const [id, entry] of map) {
      if (!seen.has(id)) {
        this.remove(entry);
        map.delete(id);
      }
    }
  }

  remove(entry) {
    this.group.remove(entry.mesh);
    entry.mesh.traverse((child) => child.geometry && child.geometry.dispose());
    if (entry.mesh.isMesh && entry.mesh.material !== EMITTER_MATERIAL) entry.mesh.material.dispose();
  }

  /** Meshes the pointer can grab. */
  pickables() {
    return this.group.children;
  }

  /** Moves an object locally while it is dragged (the server's state follows). */
  preview(kind, id, position) {
    const entry = (kind === 'collider' ? this.colliders : this.emitters).get(id);
    if (entry) entry.mesh.position.fromArray(position);
  }

  hold(kind, id, held) {
    if (held) this.held.add(`${kind}:${id}`);
    else this.held.delete(`${kind}:${id}`);
  }
}

// The tank: the domain box as edges plus translucent inner walls (back faces only, so the front walls never hide the water).
import {
  BackSide, BoxGeometry, EdgesGeometry, Group, LineBasicMaterial, LineSegments, Mesh, MeshStandardMaterial,
} from 'three';
import { heatTint } from './heat_tint.js';

const WALL_COLOUR = '#9fb6cc';
// BoxGeometry's face groups in order: +x, -x, +y, -y, +z, -z
const FACE_WALLS = ['x_max', 'x_min', 'y_max', 'y_min', 'z_max', 'z_min'];

export class ContainerView {
  constructor() {
    this.group = new Group();
    this.walls = new Mesh(
      new BoxGeometry(1, 1, 1),
      FACE_WALLS.map(() => new MeshStandardMaterial({
        color: WALL_COLOUR, side: BackSide, transparent: true, opacity: 0.28, roughness: 0.9, depthWrite: false,
      })),
    );
    this.walls.renderOrder = 1;
    this.edges = new LineSegments(
      new EdgesGeometry(new BoxGeometry(1, 1, 1)),
      new LineBasicMaterial({ color: '#c8d6e5', transparent: true, opacity: 0.7 }),
    );
    this.group.add(this.walls, this.edges);
    this.group.visible = false;
    this.key = '';
  }

  /** Tints each wall by its temperature (state.walls: {NAME: {temperature, heat_transfer}}); the others plain. */
  setWallHeat(walls = {}) {
    FACE_WALLS.forEach((name, i) => {
      const wall = walls?.[name];
      const material = this.walls.material[i];
      material.color.set(heatTint(WALL_COLOUR, wall?.temperature, wall?.heat_transfer ?? 0));
      material.opacity = wall?.heat_transfer > 0 ? 0.5 : 0.28;
    });
  }

  /** Shows domain {min, max}; returns true when it differs from the one shown before. A flat domain
   *  (a 2D world: z from 0 to 0) is drawn as a thin slab, its back wall the backdrop of the plane. */
  setDomain(domain) {
    const key = JSON.stringify(domain);
    if (key === this.key) return false;
    this.key = key;
    const size = [0, 1, 2].map((a) => domain.max[a] - domain.min[a]);
    if (!(size[2] > 0)) size[2] = 0.05 * Math.min(size[0], size[1]);
    this.group.position.set(...[0, 1, 2].map((a) => (domain.min[a] + domain.max[a]) / 2));
    this.group.scale.set(...size);
    this.group.visible = true;
    return true;
  }
}

// A collider's pose as the server reports it: a box's rotation in degrees about x, then y, then z.
import { Euler, MathUtils } from 'three';

/** The Euler rotation of collider {rotation?: [x, y, z] degrees} (three.js's 'XYZ' order, as the server's). */
export function colliderRotation(collider) {
  const [x, y, z] = (collider.rotation || [0, 0, 0]).map((d) => MathUtils.degToRad(d));
  return new Euler(x, y, z, 'XYZ');
}

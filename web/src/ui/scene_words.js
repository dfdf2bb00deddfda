// What the scene picker says of each shipped scene (welcome.scenes): its size, whether it is slow on a CPU, and its description.

/**
 * Fluid particles above which a 3D scene runs well below real time on a CPU: at the solver
 * benchmark's rate per core (bench/RESULTS.md, Solver) an 8-core CPU steps about this many at a
 * third of real time with a 0.5 ms step. A 2D particle has about half the neighbours, so twice as
 * many fit.
 */
export const SLOW_ON_CPU_PARTICLES = 20000;

/** Whether a scene entry ({particles, dimensions}) is slow on a CPU. */
export function slowOnCpu(scene) {
  const limit = scene?.dimensions === 2 ? 2 * SLOW_ON_CPU_PARTICLES : SLOW_ON_CPU_PARTICLES;
  return Number.isFinite(scene?.particles) && scene.particles > limit;
}

/** "22k" / "4,550": a particle count for a label. */
export function particleCount(n) {
  if (n >= 10000) return `${Math.round(n / 1000)}k`;
  return Math.round(n).toLocaleString('en-US');
}

/**
 * The picker's label of a scene entry: "dam_break (22k particles, slow on a CPU)" where the world
 * steps on the CPU (backend 'cpu' or unknown), without the warning on a GPU.
 */
export function sceneLabel(scene, backend = null) {
  if (!Number.isFinite(scene?.particles)) return scene.name;
  const slow = backend !== 'cuda' && slowOnCpu(scene) ? ', slow on a CPU' : '';
  return `${scene.name} (${particleCount(scene.particles)} particles${slow})`;
}

/** The tooltip of a scene entry: its description, and why it is slow. */
export function sceneTitle(scene, backend = null) {
  const lines = [scene.description || scene.name];
  if (backend !== 'cuda' && slowOnCpu(scene)) lines.push('Slow on a CPU: it steps well below real time there; a GPU server runs it fast.');
  return lines.join('\n');
}

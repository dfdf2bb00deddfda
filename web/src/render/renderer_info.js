// Which particle mode suits the GPU: point sprites on software renderers (their instancing costs a draw per instance), quads elsewhere.

const SOFTWARE = /swiftshader|llvmpipe|softpipe|software|lavapipe/i;

/** The renderer string of a WebGL context (unmasked where the browser allows). */
export function rendererName(gl) {
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  return String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER) || '');
}

/** 'points' or 'quads': `requested` ('points' | 'quads' | null, from the link) wins, else by renderer. */
export function particleMode(name, requested = null) {
  if (requested === 'points' || requested === 'quads') return requested;
  return SOFTWARE.test(name) ? 'points' : 'quads';
}

/** The GPU's renderer name, read from a throwaway WebGL2 context (before choosing antialiasing). */
export function probeRendererName() {
  const gl = document.createElement('canvas').getContext('webgl2');
  if (!gl) return '';
  const name = rendererName(gl);
  gl.getExtension('WEBGL_lose_context')?.loseContext();
  return name;
}

export function isSoftwareRenderer(name) {
  return SOFTWARE.test(name);
}

/** The largest point sprite the GPU draws, in pixels. */
export function maxPointSize(gl) {
  const range = gl.getParameter(gl.ALIASED_POINT_SIZE_RANGE);
  return range ? range[1] : 64;
}

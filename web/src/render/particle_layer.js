// The particles: one instanced quad per particle, positions and the chosen attribute uploaded straight from the decoder's arrays.
import {
  BufferAttribute, BufferGeometry, Color, DataTexture, DynamicDrawUsage, InstancedBufferAttribute, InstancedBufferGeometry,
  Mesh, NearestFilter, Points, RGBAFormat, SRGBColorSpace, ShaderMaterial, Vector2, Vector3, Vector4, WebGLRenderTarget,
} from 'three';
import { particleFragmentShader, particleVertexShader } from './particle_shader.js';
import { boundsTransform } from './bounds_transform.js';
import { COLORMAPS, WATER_BLUE, colormapTexels, fluidPalette } from '../colormap.js';
import { clipPlane, opacityTable } from './see_inside.js';

const GROWTH = 1.5;
const MIN_CAPACITY = 4096;

function colormapTexture(name) {
  const texture = new DataTexture(colormapTexels(name), 256, 1, RGBAFormat);
  texture.colorSpace = SRGBColorSpace;
  texture.magFilter = NearestFilter;
  texture.minFilter = NearestFilter;
  texture.needsUpdate = true;
  return texture;
}

/**
 * mode 'quads': an instanced quad per particle (the default: no point-size cap, so close-ups
 * work on every GPU). mode 'points': one point sprite per particle, for software renderers
 * (SwiftShader, llvmpipe) whose instancing costs a draw per instance; sprites are capped at the
 * GPU's maximum point size. Both read the same normalized uint16 positions.
 */
export class ParticleLayer {
  constructor({ mode = 'quads', maxPointSize = 1024 } = {}) {
    this.mode = mode;
    this.positionName = mode === 'points' ? 'position' : 'particlePosition';
    this.material = new ShaderMaterial({
      defines: mode === 'points' ? { POINTS: '' } : {},
      vertexShader: particleVertexShader,
      fragmentShader: particleFragmentShader,
      uniforms: {
        radius: { value: 0.01 },
        baseColor: { value: new Color(WATER_BLUE) },
        useColormap: { value: false },
        colormap: { value: null },
        sunDirection: { value: new Vector3(0.35, 0.85, 0.4).normalize() },
        skyColor: { value: new Color('#cfe6ff') },
        groundColor: { value: new Color('#1a2a3c') },
        flatten: { value: 0.6 },
        viewport: { value: new Vector2(1, 1) },
        maxPointSize: { value: maxPointSize },
        hiddenFluids: { value: 0 },
        fluidsLoaded: { value: false },
        fluidOpacity: { value: opacityTable([]) },
        useClip: { value: false },
        clipPlane: { value: new Vector4(0, 0, 0, 0) },
      },
    });
    // The see-through fluids (fluidOpacity < 1): a second mesh over the same geometry and uniforms,
    // blended after the opaque ones without writing depth (not sorted: fluids of one colour blend alike).
    this.translucentMaterial = new ShaderMaterial({
      defines: { ...this.material.defines, TRANSLUCENT: '' },
      vertexShader: particleVertexShader,
      fragmentShader: particleFragmentShader,
      uniforms: this.material.uniforms,
      transparent: true,
      depthWrite: false,
    });
    this.textures = Object.fromEntries(Object.keys(COLORMAPS).map((name) => [name, colormapTexture(name)]));
    this.capacity = 0;
    this.count = 0;
    this.hiddenMask = 0; // bit f: fluid f hidden (setHiddenFluids)
    this.fluidsLoaded = false; // the last frame carried each particle's fluid (uploaded to particleFluid)
    const Kind = mode === 'points' ? Points : Mesh;
    this.mesh = new Kind(this.createGeometry(0), this.material);
    this.mesh.frustumCulled = false; // normalized attributes give three.js no usable bounding sphere
    this.mesh.visible = false;
    this.translucent = new Kind(this.mesh.geometry, this.translucentMaterial);
    this.translucent.frustumCulled = false;
    this.translucent.visible = false; // only while some fluid is see-through
    this.mesh.add(this.translucent); // the child shares the bounds' model matrix
    this.baseRadius = 0.01;
    this.sizeFactor = 1;
    this.uploadTarget = new WebGLRenderTarget(1, 1);
  }

  createGeometry(capacity) {
    const points = this.mode === 'points';
    const geometry = points ? new BufferGeometry() : new InstancedBufferGeometry();
    const Attribute = points ? BufferAttribute : InstancedBufferAttribute;
    if (!points) {
      geometry.setAttribute('position', new BufferAttribute(new Float32Array([-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0]), 3));
      geometry.setIndex([0, 1, 2, 0, 2, 3]);
    }
    const positions = new Attribute(new Uint16Array(3 * capacity), 3, true);
    const values = new Attribute(new Uint8Array(capacity), 1, true);
    const fluids = new Attribute(new Uint8Array(capacity), 1, true);
    positions.setUsage(DynamicDrawUsage);
    values.setUsage(DynamicDrawUsage);
    fluids.setUsage(DynamicDrawUsage);
    geometry.setAttribute(this.positionName, positions);
    geometry.setAttribute('particleValue', values);
    geometry.setAttribute('particleFluid', fluids);
    this.setDrawCount(geometry, 0);
    return geometry;
  }

  setDrawCount(geometry, count) {
    if (this.mode === 'points') geometry.setDrawRange(0, count);
    else geometry.instanceCount = count;
  }

  drawCount(geometry) {
    return this.mode === 'points' ? geometry.drawRange.count : geometry.instanceCount;
  }

  /** The drawing buffer size in pixels (point sprites are sized in pixels). */
  setViewport(width, height) {
    this.material.uniforms.viewport.value.set(width, height);
  }

  /** Grows the instanced buffers (a new geometry: three.js cannot resize a buffer) when count does not fit. */
  reserve(count) {
    if (count <= this.capacity) return;
    const capacity = Math.max(count, Math.ceil(this.capacity * GROWTH), MIN_CAPACITY);
    this.mesh.geometry.dispose();
    this.mesh.geometry = this.createGeometry(capacity);
    this.translucent.geometry = this.mesh.geometry;
    this.capacity = capacity;
  }

  /** Replaces the 256 texels of colour map `name` (a rescaled map, colour_scale.js). */
  setColormapTexels(name, texels) {
    const texture = this.textures[name];
    if (!texture || texels.length !== texture.image.data.length) return;
    texture.image.data.set(texels);
    texture.needsUpdate = true;
  }

  /** The fluid colouring in the world's own colours (state.fluids). */
  setFluids(fluids) {
    this.setColormapTexels('fluid', colormapTexels('fluid', fluidPalette(fluids)));
  }

  /** Fluids not drawn: their indices in state.fluids (the first 24 can be hidden). */
  setHiddenFluids(indices) {
    this.hiddenMask = indices.filter((f) => f >= 0 && f < 24).reduce((mask, f) => mask + 2 ** f, 0);
    this.applyHiddenFluids();
  }

  /** Hides by fluid now where the particles' fluids are loaded: a paused world sends no new frame
   *  to wait for, and showing every fluid again needs no fluids at all. */
  applyHiddenFluids() {
    this.material.uniforms.hiddenFluids.value = this.fluidsLoaded ? this.hiddenMask : 0;
    this.material.uniforms.fluidsLoaded.value = this.fluidsLoaded;
  }

  /** Each fluid's opacity (index: fluid; 1 or missing: opaque); below 1 the fluid is drawn see-through. */
  setOpacity(opacity) {
    const table = opacityTable(opacity);
    this.material.uniforms.fluidOpacity.value = table;
    this.translucent.visible = table.some((v) => v < 1);
  }

  /** The cutaway ({axis, at, keep}, see_inside.js) or null: particles beyond the plane are not drawn. */
  setCut(cut) {
    const plane = clipPlane(cut);
    const uniforms = this.material.uniforms;
    uniforms.useClip.value = Boolean(plane);
    if (plane) uniforms.clipPlane.value.set(...plane.normal, plane.constant);
    this.cutPlane = plane;
  }

  /** Sphere radius in metres (from the world's particle spacing). */
  setRadius(radius) {
    if (radius > 0) this.baseRadius = radius;
    this.material.uniforms.radius.value = this.baseRadius * this.sizeFactor;
  }

  /** The drawn size, times the radius from the spacing (the view's particle size). */
  setSize(factor) {
    if (factor > 0) this.sizeFactor = factor;
    this.setRadius(0);
  }

  /** The radius drawn now, m. */
  drawnRadius() {
    return this.material.uniforms.radius.value;
  }

  /**
   * Takes a decoded frame: copies its positions (and the attribute `attributeName`, if the frame
   * has it) into the instanced attributes with bulk copies, marks the used range for upload and
   * puts the bounds in the model matrix. Returns the attribute shown ({name, lo, hi}) or null.
   */
  update(frame, attributeName) {
    const count = frame.count;
    this.reserve(count);
    const geometry = this.mesh.geometry;
    markRange(geometry.getAttribute(this.positionName), frame.positions);
    const section = attributeName ? frame.attributes[attributeName] : null;
    if (section) markRange(geometry.getAttribute('particleValue'), section.values);
    const uniforms = this.material.uniforms;
    // hidden fluids need each particle's fluid: the frame carries it while any are hidden (app.js)
    const fluids = frame.attributes.fluid;
    if (fluids) markRange(geometry.getAttribute('particleFluid'), fluids.values);
    this.fluidsLoaded = Boolean(fluids);
    this.applyHiddenFluids();
    uniforms.useColormap.value = Boolean(section);
    uniforms.colormap.value = section ? this.textures[attributeName] : null;
    this.setDrawCount(geometry, count);
    this.count = count;
    const transform = boundsTransform(frame.lo, frame.hi, frame.bits);
    this.mesh.position.fromArray(transform.position);
    this.mesh.scale.fromArray(transform.scale);
    this.mesh.updateMatrix();
    this.mesh.visible = true;
    return section ? { name: attributeName, lo: section.lo, hi: section.hi } : null;
  }

  /**
   * three.js uploads attributes only while it renders. Render the particles alone, with nothing
   * to draw, into a 1 x 1 target so that the upload happens now (inside the frame's measured
   * time) and not in the next animation frame; nothing is drawn and the canvas is not touched.
   */
  uploadNow(renderer, camera) {
    const geometry = this.mesh.geometry;
    const count = this.drawCount(geometry);
    const previousTarget = renderer.getRenderTarget();
    this.setDrawCount(geometry, 0);
    renderer.setRenderTarget(this.uploadTarget);
    renderer.render(this.mesh, camera);
    renderer.setRenderTarget(previousTarget);
    this.setDrawCount(geometry, count);
  }
}

function markRange(attribute, source) {
  attribute.array.set(source);
  attribute.clearUpdateRanges();
  attribute.addUpdateRange(0, source.length);
  attribute.needsUpdate = true;
}

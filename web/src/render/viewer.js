// The 3D view: renderer, scene, lights, orbit camera framed on the domain (a 2D world: an orthographic camera face-on), resize, and the render loop with its fps.
import {
  Color, DirectionalLight, HemisphereLight, OrthographicCamera, PerspectiveCamera, Scene, Vector2, Vector3, WebGLRenderer,
} from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { ParticleLayer } from './particle_layer.js';
import { ContainerView } from './container_view.js';
import { SceneObjects } from './scene_objects.js';
import { RateMeter } from '../util/rate_meter.js';
import { GpuFence } from './gpu_fence.js';
import { frameBox, stopOrbitMotion, viewOffset } from './camera_fit.js';
import { isSoftwareRenderer, maxPointSize, particleMode, probeRendererName } from './renderer_info.js';

const SOFTWARE_FPS = 5;
export const INSET_SLACK_PX = 16; // insets changing by less keep the framing

export class Viewer {
  /** renderMode: 'points' | 'quads' | null (null: chosen from the GPU, see renderer_info.js). */
  constructor(host, { renderMode = null } = {}) {
    this.host = host;
    // A software renderer (CI, VMs) shades every pixel on the CPU and blocks the page while it
    // draws: there, no antialiasing, 3/4 resolution, at most SOFTWARE_FPS frames per second and
    // at least as long idle as the last frame took, so that the page stays responsive.
    this.gpu = probeRendererName();
    this.software = isSoftwareRenderer(this.gpu);
    this.minFrameMs = this.software ? 1000 / SOFTWARE_FPS : 0;
    this.lastRender = -Infinity;
    this.renderer = new WebGLRenderer({ antialias: !this.software, powerPreference: 'high-performance' });
    this.renderer.setPixelRatio(this.software ? 0.75 : Math.min(window.devicePixelRatio || 1, 1.5));
    this.canvas = this.renderer.domElement;
    this.canvas.dataset.testid = 'viewport';
    host.append(this.canvas);

    this.scene = new Scene();
    this.scene.background = new Color('#121a24');
    this.perspective = new PerspectiveCamera(45, 1, 0.01, 100);
    this.perspective.position.set(2, 1.5, 3);
    // a 2D world (state.dimensions 2) is seen face-on, without perspective: pan and zoom, no orbit
    this.orthographic = new OrthographicCamera(-1, 1, 1, -1, 0.01, 100);
    this.orthoHalfHeight = 1; // metres of the plane from the view's centre to its top edge, at zoom 1
    this.camera = this.perspective;
    this.dimensions = 3;
    this.scene.add(new HemisphereLight('#dbeaff', '#2a3440', 1.6));
    const sun = new DirectionalLight('#ffffff', 1.8);
    sun.position.set(0.35, 0.85, 0.4);
    this.scene.add(sun);

    const gl = this.renderer.getContext();
    this.particles = new ParticleLayer({ mode: particleMode(this.gpu, renderMode), maxPointSize: maxPointSize(gl) });
    this.container = new ContainerView();
    this.objects = new SceneObjects();
    this.scene.add(this.particles.mesh, this.objects.group, this.container.group);

    this.insets = { top: 0, right: 0, bottom: 0, left: 0 }; // pixels the UI hides along each edge: the view centres in the rest
    this.autoFramed = false; // the camera is where framing put it (no orbit since): a new layout frames again
    this.domain = null;
    this.fps = new RateMeter(3000); // long enough to show the 1-5 fps of a software renderer
    this.fence = new GpuFence(gl);
    this.resize();
    new ResizeObserver(() => this.resize()).observe(host);
  }

  /** Orbit controls are created after the interaction layer has registered its pointer handlers. */
  enableOrbit() {
    this.controls = new OrbitControls(this.camera, this.canvas);
    this.controls.enableDamping = true;
    this.controls.dampingFactor = 0.12;
    this.controls.enableRotate = this.dimensions !== 2;
    this.controls.addEventListener('start', () => { this.autoFramed = false; });
  }

  /** 2 shows the world face-on through the orthographic camera (no orbiting), 3 through the perspective one. */
  setDimensions(dimensions) {
    const flat = dimensions === 2;
    if ((this.dimensions === 2) === flat) return;
    this.dimensions = flat ? 2 : 3;
    this.camera = flat ? this.orthographic : this.perspective;
    if (this.controls) {
      this.controls.object = this.camera;
      this.controls.enableRotate = !flat;
    }
    this.resize();
  }

  resize() {
    const width = Math.max(1, this.host.clientWidth);
    const height = Math.max(1, this.host.clientHeight);
    this.renderer.setSize(width, height, false);
    const buffer = this.renderer.getDrawingBufferSize(new Vector2());
    this.particles.setViewport(buffer.x, buffer.y);
    // Shift the projection centre into the middle of the free part: a virtual image larger than the
    // canvas, the canvas a window of it (camera_fit.js viewOffset).
    const offset = this.offset();
    const aspect = offset.fullWidth / offset.fullHeight;
    this.perspective.aspect = aspect;
    const o = this.orthographic;
    o.top = this.orthoHalfHeight;
    o.bottom = -this.orthoHalfHeight;
    o.right = this.orthoHalfHeight * aspect;
    o.left = -o.right;
    const shifted = offset.fullWidth !== width || offset.fullHeight !== height;
    for (const camera of [this.perspective, this.orthographic]) {
      if (shifted) camera.setViewOffset(offset.fullWidth, offset.fullHeight, offset.x, offset.y, width, height);
      else camera.clearViewOffset();
      camera.updateProjectionMatrix();
    }
  }

  /** The canvas as a window of the virtual image centred on the free part (camera_fit.js viewOffset). */
  offset() {
    const width = Math.max(1, this.host.clientWidth);
    const height = Math.max(1, this.host.clientHeight);
    return viewOffset(width, height, this.insets);
  }

  /** The pixels the UI hides along each edge ({top, right, bottom, left}): the view centres in the
   *  rest, and a camera framing put there frames again. */
  setInsets(insets) {
    const next = { top: 0, right: 0, bottom: 0, left: 0, ...insets };
    // the overlay's width follows its text: smaller changes than this keep the framing (the UI's
    // rects are padded by as much, app.js uiInsets), so that the camera does not jitter
    if (['top', 'right', 'bottom', 'left'].every((k) => Math.abs(next[k] - this.insets[k]) < INSET_SLACK_PX)) return;
    this.insets = next;
    this.resize();
    if (this.autoFramed) this.frameDomain();
  }

  /** Shows the domain of a world of `dimensions` (2 or 3); frames the camera on it the first time
   *  and whenever it changes. */
  setDomain(domain, dimensions = 3) {
    const switched = (this.dimensions === 2) !== (dimensions === 2);
    this.setDimensions(dimensions);
    if (!this.container.setDomain(domain) && !switched) return;
    this.domain = domain;
    this.frameDomain();
  }

  /** Puts the camera back where it starts: in front of the domain, the whole domain in view. */
  frameDomain() {
    const domain = this.domain;
    if (!domain) return;
    this.autoFramed = true;
    if (this.dimensions === 2) {
      this.frameFaceOn(domain);
      return;
    }
    if (this.controls) this.controls.maxDistance = Infinity; // the domain's limit is set below
    const distance = frameBox(this, domain.min, domain.max);
    this.camera.near = distance / 100;
    this.camera.far = distance * 20;
    this.camera.updateProjectionMatrix();
    if (this.controls) this.controls.maxDistance = distance * 6;
  }

  /** 2D: the orthographic camera on the z axis through the domain's centre, looking down -z, the
   *  whole rectangle in the part of the view the UI leaves free, with 5 % to spare. */
  frameFaceOn(domain) {
    stopOrbitMotion(this.controls);
    const offset = this.offset();
    const freeAspect = offset.freeWidth / offset.freeHeight;
    const sizeX = domain.max[0] - domain.min[0];
    const sizeY = domain.max[1] - domain.min[1];
    // the free part is freeHeight of the virtual image's fullHeight: the half height covers it all
    this.orthoHalfHeight = Math.max(sizeY / 2, sizeX / 2 / freeAspect, 1e-3) * 1.05 * (offset.fullHeight / offset.freeHeight);
    const centre = new Vector3((domain.min[0] + domain.max[0]) / 2, (domain.min[1] + domain.max[1]) / 2, 0);
    const distance = 4 * Math.max(sizeX, sizeY, 1e-3);
    const camera = this.orthographic;
    camera.position.set(centre.x, centre.y, distance);
    camera.up.set(0, 1, 0);
    camera.zoom = 1;
    camera.near = distance / 100;
    camera.far = distance * 4;
    this.resize();
    if (this.controls) {
      this.controls.target.copy(centre);
      this.controls.update();
    } else {
      camera.lookAt(centre);
    }
  }

  /** The camera's position and the point it looks at (the orbit centre), in metres. */
  cameraPose() {
    const target = this.controls ? this.controls.target : new Vector3();
    return { position: this.camera.position.toArray(), target: target.toArray() };
  }

  /** Moves the camera to a pose (a presenter's, when following). */
  setCameraPose(pose) {
    stopOrbitMotion(this.controls);
    this.camera.position.fromArray(pose.position);
    if (this.controls) {
      this.controls.target.fromArray(pose.target);
      this.controls.update();
    } else {
      this.camera.lookAt(new Vector3().fromArray(pose.target));
    }
  }

  start() {
    const loop = (now) => {
      requestAnimationFrame(loop);
      if (this.fence.busy()) return; // the GPU is still drawing the last frame: queue nothing behind it
      const interval = this.software ? Math.max(this.minFrameMs, 2 * this.fence.lastDuration) : 0;
      if (now - this.lastRender < interval) return;
      this.lastRender = now;
      this.fps.add(now);
      if (this.controls) this.controls.update();
      this.renderer.render(this.scene, this.camera);
      this.fence.mark();
    };
    requestAnimationFrame(loop);
  }

  /** Uploads the particles now unless the GPU is behind (then the next render uploads the newest
   *  and this returns false). */
  uploadParticles() {
    if (this.fence.busy()) return false;
    this.particles.uploadNow(this.renderer, this.camera);
    return true;
  }

  renderFps() {
    return this.fps.rate(performance.now());
  }
}

// Wires the viewer together: socket and session, frame receiver, 3D view, panel, toolbar, emitter list, overlay, toast.
import { Viewer } from './render/viewer.js';
import { ReconnectingSocket } from './net/socket.js';
import { Session } from './net/session.js';
import { FrameReceiver } from './net/frame_receiver.js';
import { createDecoding } from './net/decoding.js';
import { FrameTimings } from './net/frame_timings.js';
import * as messages from './net/messages.js';
import { roomLink, socketUrl, withWorld } from './links.js';
import { RateMeter } from './util/rate_meter.js';
import { Toast } from './ui/toast.js';
import { StatusOverlay } from './ui/status_overlay.js';
import { Legend } from './ui/legend.js';
import { ParameterPanel } from './ui/parameter_panel.js';
import { Toolbar } from './ui/toolbar.js';
import { EmitterList } from './ui/emitter_list.js';
import { Interaction } from './interact/interaction.js';
import { defaultEmitterPlace } from './interact/surface_pick.js';
import { Extras } from './extras.js';

const OVERLAY_INTERVAL_MS = 250;

/** elements: {viewport, toolbar, panel, side, emitters, overlay, legend, toast, watchNote}; link: parseLink(). */
export class App {
  constructor(elements, link, { location = window.location, devServer = null } = {}) {
    this.elements = elements;
    this.timings = new FrameTimings();
    this.bytes = new RateMeter(1000);
    this.newestFrame = null;
    this.uploadsDeferred = 0; // frames whose upload was left to the next render (GPU behind)
    this.frameArrivedAt = null;
    this.shownAttribute = null;

    this.viewer = new Viewer(elements.viewport, { renderMode: link.render });
    this.socket = new ReconnectingSocket(socketUrl(location, devServer));
    this.session = new Session({
      socket: this.socket, token: link.token, world: link.world, attribute: link.attribute, maxFps: link.maxFps, bits: link.bits,
    });
    this.receiver = new FrameReceiver({
      onFrame: (frame) => this.showFrame(frame),
      onNeedKey: () => this.session.needKey(),
      onCorrupt: (error) => this.session.corruptFrame(error),
      timings: this.timings,
      decoding: createDecoding(),
    });
    this.session.receiver = this.receiver;
    this.socket.on('bytes', (n) => this.bytes.add(performance.now(), n));

    this.buildUi();
    this.interaction = new Interaction(this.viewer, {
      domain: () => this.session.state?.domain ?? null,
      colliders: () => this.session.state?.colliders ?? [],
      canControl: () => this.session.canControl,
      emitterDefaults: () => this.emitterDefaults(),
    }, {
      moveCollider: (id, position, velocity) => this.session.control(messages.colliderMove, [id, position, velocity]),
      moveEmitter: (id, position) => this.session.control(messages.emitterUpdate, [id, { position }]),
      addEmitter: (emitter) => this.session.control(messages.emitterAdd, [emitter]),
    });
    this.viewer.enableOrbit(); // after the interaction's pointer handlers
    const side = elements.side;
    if (side) new ResizeObserver(() => this.viewer.setInsetRight(side.offsetWidth + 20)).observe(side);
    this.listen();
    this.buildExtras();
  }

  /** Plots, shortcuts, help, screenshot, room link popover, colour scales, picking (extras.js). */
  buildExtras() {
    this.extras = new Extras(this);
  }

  buildUi() {
    const { session } = this;
    this.toast = new Toast(this.elements.toast);
    this.overlay = new StatusOverlay(this.elements.overlay);
    this.legend = new Legend(this.elements.legend);
    this.panel = new ParameterPanel(this.elements.panel, {
      onSet: (name, value, revert) => session.control(messages.set, [{ [name]: value }], { onError: revert }),
      onLocalError: (error) => this.toast.show(error),
    });
    this.toolbar = new Toolbar(this.elements.toolbar, {
      play: () => session.control(messages.resume),
      pause: () => session.control(messages.pause),
      step: () => session.control(messages.step, [1]),
      reset: () => session.control(messages.reset),
      loadScene: (scene) => session.control(messages.loadScene, [scene], { onError: () => this.refreshControls() }),
      setSolver: (solver) => session.control(messages.setSolver, [solver], { onError: () => this.refreshControls() }),
      selectWorld: (world) => session.subscribe(world),
      setAttribute: (attribute) => session.setOptions({ attribute }),
      setMaxFps: (maxFps) => session.setOptions({ maxFps }),
      addEmitter: () => this.addDefaultEmitter(),
      toggleEmitterMode: () => {
        this.interaction.setPlacing(!this.interaction.placing);
        this.refreshControls();
      },
      copyRoomLink: () => this.copyRoomLink(),
    });
    this.elements.toolbar.append(this.elements.watchNote); // in the bar's flow, never over a button
    this.emitterList = new EmitterList(this.elements.emitters, {
      update: (id, changes) => session.control(messages.emitterUpdate, [id, changes]),
      remove: (id) => session.control(messages.emitterRemove, [id]),
    });
  }

  listen() {
    const { session } = this;
    session.on('connection', () => this.refreshControls());
    session.on('welcome', (welcome) => {
      this.panel.build(welcome.parameters, welcome.role);
      if (session.state) this.panel.setValues(session.state.values);
      this.refreshControls();
    });
    session.on('worlds', () => this.refreshControls());
    session.on('subscribed', (world) => {
      history.replaceState(null, '', withWorld(window.location.href, world));
      this.refreshControls();
    });
    session.on('state', (state) => this.applyState(state));
    session.on('error', (error) => this.toast.show(error));
    session.on('unstable', (u) => this.toast.show({
      code: 'unstable', field: null,
      message: `The world blew up and paused (${u.check}): ${u.cause}. Rewind or reset it.`,
    }));
    session.on('bye', (bye) => this.toast.show({ code: 'bye', field: null, message: bye.message || 'the server is shutting down' }));
    setInterval(() => this.updateOverlay(), OVERLAY_INTERVAL_MS);
  }

  start() {
    this.viewer.start();
    this.socket.start();
  }

  /** The measured part of a frame: copy into the instanced attributes and upload to the GPU
   *  (when the GPU is behind, the next render uploads the newest frame instead). */
  showFrame(frame) {
    const previous = this.newestFrame;
    this.newestFrame = frame;
    this.frameArrivedAt = performance.now();
    this.shownAttribute = this.viewer.particles.update(frame, this.session.options.attribute);
    this.extras.frameShown(frame, this.shownAttribute);
    if (!this.viewer.uploadParticles()) this.uploadsDeferred += 1;
    this.receiver.recycle(previous); // copied into the attributes: its buffers go back to the decode worker
    if (frame.kind === 'key') this.session.keyFrameArrived();
  }

  applyState(state) {
    this.viewer.setDomain(state.domain);
    const spacing = state.values.particle_spacing;
    if (spacing > 0) {
      this.viewer.particles.setRadius(spacing * 0.75);
      this.viewer.objects.markerSize = spacing * 3;
    }
    this.viewer.objects.sync(state.colliders, state.emitters);
    this.panel.setValues(state.values);
    if (state.solver !== this.panel.solver) this.panel.showSolver(state.solver);
    this.emitterList.update(state.emitters, this.session.canControl);
    this.refreshControls();
  }

  refreshControls() {
    const { session } = this;
    const canControl = session.canControl && session.connection === 'open';
    this.elements.watchNote.hidden = session.role !== 'watch';
    if (!session.canControl && this.interaction?.placing) this.interaction.setPlacing(false);
    this.toolbar.update({
      canControl,
      worlds: session.worlds,
      world: session.world,
      scenes: session.welcome?.scenes ?? [],
      scene: session.state?.scene ?? null,
      solvers: session.welcome?.solvers ?? [],
      solver: session.state?.solver ?? null,
      paused: session.state ? session.state.paused : null,
      attribute: session.options.attribute,
      maxFps: session.options.maxFps,
      emitterMode: Boolean(this.interaction?.placing),
    });
    if (session.state) this.emitterList.update(session.state.emitters, canControl);
  }

  emitterDefaults() {
    const spacing = this.session.state?.values?.particle_spacing ?? 0.02;
    return { radius: 2.5 * spacing, speed: 1.5, offset: 2 * spacing };
  }

  addDefaultEmitter() {
    const domain = this.session.state?.domain;
    if (!domain) return;
    const defaults = this.emitterDefaults();
    const height = domain.max[1] - domain.min[1];
    const place = defaultEmitterPlace(domain, Math.max(4 * defaults.radius, 0.1 * height));
    this.session.control(messages.emitterAdd, [{ ...place, radius: defaults.radius, speed: defaults.speed }]);
  }

  copyRoomLink() {
    if (this.session.world === null) return;
    this.extras.showRoomLink(roomLink(window.location.href, this.session.world));
  }

  bytesPerSecond() {
    return this.bytes.rate(performance.now());
  }

  updateOverlay() {
    const { session } = this;
    const now = performance.now();
    const frame = this.newestFrame;
    const stats = session.stats;
    const state = session.state;
    this.overlay.update({
      connection: session.connection,
      retryInMs: this.socket.retryAt !== null ? Math.max(0, this.socket.retryAt - Date.now()) : null,
      role: session.role,
      world: session.world,
      worldName: state?.name,
      paused: state?.paused,
      particles: frame ? frame.count : 0,
      renderFps: this.viewer.renderFps(),
      stepsPerS: stats?.steps_per_s ?? state?.steps_per_s ?? null,
      stepMs: stats?.step_ms ?? state?.step_ms ?? null,
      time: frame ? frame.time : 0,
      bytesPerSecond: this.bytesPerSecond(),
      tier: stats?.tier ?? null,
      bits: stats?.bits ?? null,
      frameAgeMs: this.frameArrivedAt === null ? null : now - this.frameArrivedAt,
    });
    this.legend.update(this.shownAttribute);
  }
}

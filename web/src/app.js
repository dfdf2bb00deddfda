// Wires the viewer together: socket and session, frame receiver, 3D view, panel, toolbar, emitter and collider lists, banners, overlay, toast.
import { INSET_SLACK_PX, Viewer } from './render/viewer.js';
import { ReconnectingSocket } from './net/socket.js';
import { Session } from './net/session.js';
import { FrameReceiver } from './net/frame_receiver.js';
import { createDecoding } from './net/decoding.js';
import { FrameTimings } from './net/frame_timings.js';
import * as messages from './net/messages.js';
import { rememberToken, roomBase, roomLink, sceneAttribute, socketUrl, withAttribute, withWorld } from './links.js';
import { RateMeter } from './util/rate_meter.js';
import { RealtimeFactor } from './util/realtime_factor.js';
import { Toast } from './ui/toast.js';
import { StatusOverlay } from './ui/status_overlay.js';
import { Legend } from './ui/legend.js';
import { ParameterPanel } from './ui/parameter_panel.js';
import { fluidValues } from './ui/panel_model.js';
import { Toolbar } from './ui/toolbar.js';
import { EmitterList } from './ui/emitter_list.js';
import { ColliderList, defaultCollider } from './ui/collider_list.js';
import { UnstableBanner, rewindNote } from './ui/unstable_banner.js';
import { BusyIndicator } from './ui/busy_indicator.js';
import { TokenPrompt } from './ui/token_prompt.js';
import { SceneUpload, sceneErrorText } from './ui/scene_upload.js';
import { Interaction } from './interact/interaction.js';
import { CameraShare } from './interact/camera_share.js';
import { freeInsets, projectedExtent } from './render/camera_fit.js';
import { Extras } from './extras.js';
import { labelWords } from './ui/parameter_words.js';
import { ViewControls } from './ui/view_controls.js';
import { WallPanel } from './ui/wall_panel.js';
import { defaultSettings, needsFluids, viewSettings } from './render/see_inside.js';

const OVERLAY_INTERVAL_MS = 250;
const RESTARTED_NOTE = 'The server restarted: every world was rebuilt from its scene (time 0, changes made before are gone).';

const CAMERA_TICK_MS = 100;
const PHONE_WIDTH_PX = 700; // at most this wide the side panel is a bottom sheet (style.css)

/**
 * elements: {viewport, toolbar, panel, side, sheetToggle, emitters, colliders, overlay, legend,
 * toast, watchNote, unstable, busy}; link: parseLink() with the tab's token.
 */
export class App {
  constructor(elements, link, { location = window.location, devServer = null } = {}) {
    this.elements = elements;
    this.timings = new FrameTimings();
    this.bytes = new RateMeter(1000);
    this.realtime = new RealtimeFactor();
    this.newestFrame = null;
    this.uploadsDeferred = 0; // frames whose upload was left to the next render (GPU behind)
    this.frameArrivedAt = null;
    this.shownAttribute = null;
    this.linkAttribute = link.attribute; // ?attribute= of the link: wins over the first scene's colour mode
    this.openedScene = null; // "world:scene" of the newest state: a new one applies its scene's colour mode
    this.see = defaultSettings(); // "See inside": hidden fluids, opacity, cutaway, size (see_inside.js)

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
      addEmitter: (emitter) => this.session.control(messages.emitterAdd, [emitter], {
        onAck: (ack) => { if (ack.applied?.note) this.toast.show({ code: 'note', field: null, message: ack.applied.note }); },
      }),
    }, { onPlacingChange: () => this.refreshControls() });
    this.viewer.enableOrbit(); // after the interaction's pointer handlers
    this.cameraShare = new CameraShare(this.viewer, (pose) => this.session.control(messages.camera, [pose]));
    const side = elements.side;
    const inset = () => this.viewer.setInsets(this.uiInsets());
    const observer = new ResizeObserver(inset);
    for (const element of [side, elements.toolbar, elements.overlay, elements.legend]) if (element) observer.observe(element);
    window.addEventListener('resize', inset);
    this.measureInsets = inset;
    this.insetObserver = observer;
    elements.sheetToggle?.addEventListener('click', () => {
      const open = side.classList.toggle('open');
      elements.sheetToggle.setAttribute('aria-expanded', String(open));
      elements.sheetToggle.textContent = open ? 'Hide controls ▾' : 'Parameters and emitters ▴';
    });
    this.listen();
    this.buildExtras();
  }

  /** Plots, shortcuts, help, screenshot, room link popover, colour scales, picking (extras.js). */
  buildExtras() {
    this.extras = new Extras(this);
    const plots = document.querySelector('[data-testid="plots-panel"]');
    if (plots) this.insetObserver.observe(plots);
    this.measureInsets(); // the toolbar has all its groups now
  }

  /**
   * What the UI hides of the view (camera_fit.js freeInsets): the free part is the rectangle clear
   * of the toolbar's groups (on a phone only its first row), the closed or open plots box, the
   * overlay, the legend, and the side panel (desktop) or a phone's sheet handle, in which the tank
   * (3D: as the camera sees it from its framing direction; 2D: face-on) is drawn largest.
   */
  uiInsets() {
    // shown elements (fixed ones have no offsetParent), padded by the slack within which the framing stays
    const rect = (element) => {
      if (!element || element.hidden || element.getClientRects().length === 0) return null;
      const r = element.getBoundingClientRect();
      return { left: r.left - INSET_SLACK_PX, top: r.top - INSET_SLACK_PX, right: r.right + INSET_SLACK_PX, bottom: r.bottom + INSET_SLACK_PX };
    };
    const { toolbar, side, overlay, legend, sheetToggle } = this.elements;
    const phone = window.innerWidth <= PHONE_WIDTH_PX;
    const groups = [...(toolbar?.querySelectorAll(':scope > .group, :scope > #watch-note') ?? [])]
      .filter((g) => !(phone && g.classList.contains('more'))).map(rect).filter(Boolean);
    // the toolbar's rows and the plots box under them as one block along the top
    const plots = rect(document.querySelector('[data-testid="plots-panel"]'));
    const top = [...groups, plots].filter(Boolean);
    const block = top.length ? {
      left: Math.min(...top.map((r) => r.left)), top: Math.min(...top.map((r) => r.top)),
      right: Math.max(...top.map((r) => r.right)), bottom: Math.max(...top.map((r) => r.bottom)),
    } : null;
    const domain = this.session.state?.domain;
    let fits;
    if (domain) {
      const flat = (this.session.state?.dimensions ?? 3) === 2;
      const extent = flat
        ? { across: domain.max[0] - domain.min[0], upward: domain.max[1] - domain.min[1] }
        : projectedExtent(domain.min, domain.max);
      fits = (w, h) => Math.min(w / extent.across, h / extent.upward);
    }
    const insets = freeInsets(window.innerWidth, window.innerHeight, [
      block, rect(overlay), rect(legend), phone ? rect(sheetToggle) : rect(side),
    ], fits);
    // a phone's open menu and open sheet are transient: the view keeps its framing under them
    const previous = this.viewer.insets;
    if (phone && toolbar?.classList.contains('menu-open')) return previous;
    if (phone && side?.classList.contains('open')) return previous;
    return insets;
  }

  buildUi() {
    const { session } = this;
    this.toast = new Toast(this.elements.toast);
    this.overlay = new StatusOverlay(this.elements.overlay);
    this.legend = new Legend(this.elements.legend);
    this.busy = new BusyIndicator(this.elements.busy);
    this.banner = new UnstableBanner(this.elements.unstable, {
      rewind: () => session.control(messages.rewind, [], { onAck: (ack) => this.noteRewind(ack) }),
      reset: () => this.rebuild('Resetting to the scene', messages.reset, []),
      applySuggested: (values, canRewind) => this.applySuggested(values, canRewind),
    });
    this.viewControls = new ViewControls(this.elements.viewControls, { onChange: () => this.applySeeInside() });
    this.panel = new ParameterPanel(this.elements.panel, {
      onSet: (name, value, revert) => session.control(messages.set, [{ [name]: value }], {
        showsError: true,
        onError: (error) => {
          revert();
          if (!this.panel.showServerError(name, error)) this.toast.show(error);
        },
      }),
      onPendingChange: () => this.refreshControls(),
    });
    this.sceneUpload = new SceneUpload(document.body, {
      onScene: (name, scene) => this.rebuild(`Loading ${name}`, messages.loadScene, [scene], (error) => ({ ...error, message: sceneErrorText(name, error) })),
      onError: (message) => this.toast.show({ code: 'bad_value', field: 'scene', message }),
    });
    this.toolbar = new Toolbar(this.elements.toolbar, {
      play: () => session.control(messages.resume),
      pause: () => session.control(messages.pause),
      step: () => session.control(messages.step, [1]),
      restart: () => this.rebuild('Restarting with these settings', messages.reset, [this.panel.restartValues()]),
      reset: () => this.rebuild('Resetting to the scene', messages.reset, []),
      loadScene: (scene) => this.rebuild(`Loading ${scene}`, messages.loadScene, [scene]),
      openScene: () => this.sceneUpload.pick(),
      setSolver: (solver) => session.control(messages.setSolver, [solver], {
        onError: () => this.refreshControls(),
        // the new solver's own step replaced one far from it: say so (PROTOCOL.md set_solver)
        onAck: (ack) => {
          if (!ack.applied?.note) return;
          // an information (green), in the panel's words: "Time step 0.002 s became 0.0005 s, …"
          const words = labelWords(session.welcome?.parameters);
          const note = words(ack.applied.note);
          this.toast.show({ code: 'info', field: null, message: note.charAt(0).toUpperCase() + note.slice(1) });
        },
      }),
      selectWorld: (world) => session.subscribe(world),
      toggleHidden: () => session.control(messages.setWorldHidden, [!this.currentSummary()?.hidden]),
      setAttribute: (attribute) => this.chooseAttribute(attribute),
      toggleAir: () => this.setAirHidden(!this.airHidden),
      setMaxFps: (maxFps) => session.setOptions({ maxFps }),
      addEmitter: () => this.addDefaultEmitter(),
      toggleEmitterMode: () => this.interaction.setPlacing(!this.interaction.placing),
      copyRoomLink: () => this.copyRoomLink(),
      toggleBroadcast: () => {
        this.cameraShare.setBroadcasting(!this.cameraShare.broadcasting);
        this.refreshControls();
      },
      toggleFollow: () => {
        this.cameraShare.setFollowing(!this.cameraShare.following);
        this.refreshControls();
      },
      resetView: () => this.viewer.frameDomain(),
    });
    this.tokenPrompt = new TokenPrompt(this.elements.watchNote, { submit: (token) => session.authenticate(token) });
    this.elements.toolbar.append(this.elements.watchNote); // in the bar's flow, never over a button
    this.emitterList = new EmitterList(this.elements.emitters, {
      update: (id, changes) => session.control(messages.emitterUpdate, [id, changes], {
        showsError: true,
        onError: (error) => this.emitterList.showError(id, `Emitter #${id}: ${String(error.message).replace(/^changes\./, '')}`),
      }),
      remove: (id) => session.control(messages.emitterRemove, [id]),
    });
    this.wallPanel = new WallPanel(this.elements.walls, {
      update: (walls) => session.control(messages.wallsUpdate, [walls], {
        showsError: true, onError: (error) => this.toast.show(error), onAck: (ack) => this.showNote(ack),
      }),
    });
    this.colliderList = new ColliderList(this.elements.colliders, {
      add: (shape) => {
        const domain = session.state?.domain;
        if (domain) session.control(messages.colliderAdd, [defaultCollider(domain, shape)]);
      },
      update: (id, changes) => session.control(messages.colliderUpdate, [id, changes], {
        showsError: true,
        onAck: (ack) => this.showNote(ack),
        onError: (error) => this.colliderList.showError(id, `Collider #${id}: ${String(error.message).replace(/^changes\./, '')}`),
      }),
      rotate: (id, rotation) => {
        const collider = session.state?.colliders?.find((c) => c.id === id);
        if (!collider) return;
        session.control(messages.colliderMove, [id, collider.position, [0, 0, 0], rotation], {
          showsError: true,
          onError: (error) => this.colliderList.showError(id, `Collider #${id}: ${String(error.message)}`),
        });
      },
      remove: (id) => session.control(messages.colliderRemove, [id]),
    });
  }

  /**
   * A request that rebuilds the world (reset, restart, load scene): the progress line shows until
   * its reply; build-time edits are forgotten once it is applied. describe(error) rewords an error.
   */
  rebuild(label, build, args, describe = (error) => error) {
    const token = this.busy.start(label);
    const id = this.session.control(build, args, {
      showsError: true,
      onAck: () => {
        this.busy.finish(token);
        this.panel.clearPending();
      },
      onError: (error) => {
        this.busy.finish(token);
        const field = /^values\.((?:[A-Za-z0-9_-]+\.)?[a-z0-9_]+)$/.exec(error.field || '');
        if (!field || !this.panel.showServerError(field[1], error)) this.toast.show(describe(error));
        this.refreshControls();
      },
    });
    if (id === null) this.busy.finish(token);
  }

  /** A notice the server adds to an ack (a heat setting while heat conduction is off, say), as an
   *  information in the panel's words; nothing without one. */
  showNote(ack) {
    const note = [ack?.applied?.note, ack?.applied?.notice, ack?.note, ack?.notice].find((n) => typeof n === 'string' && n);
    if (!note) return;
    const words = labelWords(this.session.welcome?.parameters)(note);
    this.toast.show({ code: 'info', field: null, message: words.charAt(0).toUpperCase() + words.slice(1) });
  }

  /** A rewind's ack: the objects or walls it took back, if any, in the toast. */
  noteRewind(ack) {
    const note = rewindNote(ack?.applied);
    if (note) this.toast.show(note);
  }

  /**
   * The blow-up banner's one click: rewind first (the values set since stay; objects it takes back
   * are named in the toast), then `set` the suggested values as the panel sends values, then play.
   * Without a checkpoint the world is rebuilt with them (a world a blow-up paused plays its new
   * build). Errors go to the toast.
   */
  applySuggested(values, canRewind) {
    if (!values) return;
    const { session } = this;
    const showError = { showsError: true, onError: (error) => this.toast.show(error) };
    if (!canRewind) {
      this.rebuild('Restarting with the suggested values', messages.reset, [{ ...this.panel.restartValues(), ...values }]);
      return;
    }
    session.control(messages.rewind, [], {
      ...showError,
      onAck: (ack) => {
        this.noteRewind(ack);
        session.control(messages.set, [values], {
          ...showError,
          onAck: () => session.control(messages.resume, [], showError),
        });
      },
    });
  }

  /** Colours the particles by attribute (null: plain) and keeps it in the address. */
  chooseAttribute(attribute) {
    this.session.setOptions({ attribute });
    history.replaceState(null, '', withAttribute(window.location.href, attribute));
  }

  /** A world's state with another scene than the last one shown (subscribe, load_scene): its own colour mode, if it names one. */
  openScene(state) {
    const opened = `${state.world}:${state.scene}`;
    if (opened === this.openedScene) return;
    const first = this.openedScene === null;
    this.openedScene = opened;
    if (!first) this.extras?.plots.clear(); // another scene: its own plots, from its start
    this.see = viewSettings(state.view, state.fluids ?? [], state.domain ?? null); // the scene's own way in
    const attribute = sceneAttribute(state.view);
    if (attribute === undefined || (first && this.linkAttribute)) return;
    if (attribute !== this.session.options.attribute) this.chooseAttribute(attribute);
  }

  currentSummary() {
    return this.session.worlds.find((w) => w.id === this.session.world) ?? null;
  }

  listen() {
    const { session } = this;
    session.on('connection', () => this.refreshControls());
    session.on('welcome', (welcome) => {
      rememberToken(welcome.role === 'control' ? session.token : null, window.sessionStorage);
      if (session.restarted) {
        this.toast.show({ code: 'server_restarted', field: null, message: RESTARTED_NOTE });
      }
      this.panel.build(welcome.parameters, welcome.role);
      this.elements.side?.classList.toggle('watching', welcome.role !== 'control'); // a compact panel (style.css)
      this.banner.setParameters(welcome.parameters);
      if (session.state) this.panel.setValues({ ...session.state.values, ...fluidValues(session.state.fluids) });
      this.refreshControls();
    });
    session.on('worlds', () => this.refreshControls());
    session.on('subscribed', (world) => {
      history.replaceState(null, '', withWorld(window.location.href, world));
      this.cameraShare.setBroadcasting(false);
      this.cameraShare.setFollowing(false);
      this.banner.show(null, false);
      this.refreshControls();
    });
    session.on('state', (state) => this.applyState(state));
    session.on('error', (error) => this.toast.show(error));
    session.on('unstable', (u) => this.banner.show(u, session.canControl));
    session.on('progress', (p) => this.busy.progress(p));
    session.on('camera', (c) => {
      this.cameraShare.received(c);
      this.refreshControls();
    });
    session.on('bye', (bye) => this.toast.show({ code: 'bye', field: null, message: bye.message || 'the server is shutting down' }));
    setInterval(() => this.updateOverlay(), OVERLAY_INTERVAL_MS);
    setInterval(() => this.cameraShare.tick(), CAMERA_TICK_MS);
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
    this.realtime.add(this.frameArrivedAt, frame.time);
    this.shownAttribute = this.viewer.particles.update(frame, this.session.options.attribute);
    this.extras.frameShown(frame, this.shownAttribute);
    if (!this.viewer.uploadParticles()) this.uploadsDeferred += 1;
    this.receiver.recycle(previous); // copied into the attributes: its buffers go back to the decode worker
    if (frame.kind === 'key') this.session.keyFrameArrived();
  }

  applyState(state) {
    this.openScene(state);
    const domainKey = JSON.stringify([state.domain, state.dimensions]);
    if (domainKey !== this.domainKey) { // another tank: the free part that shows it largest
      this.domainKey = domainKey;
      this.viewer.insets = this.uiInsets();
      this.viewer.resize();
    }
    this.viewer.setDomain(state.domain, state.dimensions ?? 3);
    const spacing = state.values.particle_spacing;
    if (spacing > 0) {
      this.viewer.particles.setRadius(spacing * 0.75);
      this.viewer.objects.markerSize = spacing * 3;
    }
    this.viewer.objects.sync(state.colliders, state.emitters);
    this.viewer.container.setWallHeat(state.walls);
    this.panel.setDimensions(state.dimensions);
    this.panel.setFluids(state.fluids);
    this.panel.setValues({ ...state.values, ...fluidValues(state.fluids) });
    this.viewer.particles.setFluids(state.fluids);
    this.legend.setFluids(state.fluids);
    this.viewControls.show(this.see, { fluids: state.fluids ?? [], domain: state.domain, dimensions: state.dimensions ?? 3 });
    this.applySeeInside();
    if (state.solver !== this.panel.solver) this.panel.showSolver(state.solver);
    this.emitterList.update(state.emitters, this.session.canControl, state.fluids ?? []);
    this.banner.show(state.unstable ?? null, this.session.canControl);
    if (state.camera_broadcast === false) this.cameraShare.received({ active: false });
    this.refreshControls();
  }

  /** The indices of the world's fluids of kind air (state.fluids). */
  airFluids() {
    const fluids = this.session.state?.fluids;
    return Array.isArray(fluids) ? fluids.flatMap((f, i) => (f?.kind === 'air' ? [i] : [])) : [];
  }

  /** Whether every fluid of kind air is hidden (the toolbar's Hide air / Show air). */
  get airHidden() {
    const air = this.airFluids();
    return air.length > 0 && air.every((f) => this.see.hidden.has(f));
  }

  /** Hides or shows the air (this viewer only), as the See inside folder's boxes do. */
  setAirHidden(hidden) {
    for (const f of this.airFluids()) {
      if (hidden) this.see.hidden.add(f);
      else this.see.hidden.delete(f);
    }
    if (this.see.hidden.size >= (this.session.state?.fluids?.length ?? 1)) this.see.hidden.clear(); // never nothing at all
    this.viewControls.refresh();
    this.applySeeInside();
  }

  /**
   * Draws the particles as "See inside" says (this viewer only): hidden and see-through fluids
   * need each particle's fluid, which then rides along in the frames (withFluid).
   */
  applySeeInside() {
    const { see } = this;
    const particles = this.viewer.particles;
    particles.setHiddenFluids([...see.hidden]);
    particles.setOpacity(see.opacity);
    particles.setCut(see.cut);
    particles.setSize(see.size);
    const withFluid = needsFluids(see, this.session.state?.fluids?.length ?? 1);
    if (withFluid !== Boolean(this.session.options.withFluid)) this.session.setOptions({ withFluid });
    this.refreshControls();
  }

  refreshControls() {
    const { session } = this;
    const canControl = session.canControl && session.connection === 'open';
    this.tokenPrompt.update(session.role, session.tokenRefused);
    if (!session.canControl && this.interaction?.placing) this.interaction.setPlacing(false);
    if (!session.canControl && this.cameraShare?.broadcasting) this.cameraShare.setBroadcasting(false);
    this.toolbar.update({
      canControl,
      worlds: session.worlds,
      world: session.world,
      scenes: session.welcome?.scenes ?? [],
      scene: session.state?.scene ?? null,
      name: session.state?.name ?? null,
      backend: session.state?.backend ?? null,
      solvers: session.welcome?.solvers ?? [],
      solver: session.state?.solver ?? null,
      paused: session.state ? session.state.paused : null,
      attribute: session.options.attribute,
      maxFps: session.options.maxFps,
      emitterMode: Boolean(this.interaction?.placing),
      pending: this.panel.pending.size,
      hidden: Boolean(this.currentSummary()?.hidden),
      broadcasting: Boolean(this.cameraShare?.broadcasting),
      following: Boolean(this.cameraShare?.following),
      presenterLive: Boolean(session.state?.camera_broadcast) || Boolean(this.cameraShare?.presenterPose),
      hasAir: this.airFluids().length > 0,
      airHidden: Boolean(this.airHidden),
    });
    if (session.state) {
      this.emitterList.update(session.state.emitters, canControl, session.state.fluids ?? []);
      this.colliderList.update(session.state.colliders, canControl, session.state.dimensions ?? 3);
      this.wallPanel.show(session.state.walls ?? {}, session.state.dimensions ?? 3, canControl, this.openedScene);
    }
  }

  emitterDefaults() {
    const spacing = this.session.state?.values?.particle_spacing ?? 0.02;
    return { radius: 2.5 * spacing, speed: 1.5, offset: 2 * spacing };
  }

  /** "+ Emitter": the server places it above the fluid's surface with a rate for the world's dimensions (emitter_add
   * without position and rate), and its note says where, and when a closed tank is full. */
  addDefaultEmitter() {
    if (!this.session.state?.domain) return;
    const { radius, speed } = this.emitterDefaults();
    this.session.control(messages.emitterAdd, [{ radius, speed }], {
      onAck: (ack) => { if (ack.applied?.note) this.toast.show({ code: 'note', field: null, message: ack.applied.note }); },
    });
  }

  copyRoomLink() {
    if (this.session.world === null) return;
    const { base, warning } = roomBase(this.session.welcome?.room ?? null, window.location.href);
    const link = roomLink(base, this.session.world, { attribute: this.session.options.attribute });
    this.extras.showRoomLink(link, warning); // the popover: link, QR code, copied to the clipboard with a confirmation
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
      backend: state?.backend ?? null,
      device: state?.device ?? null,
      paused: state?.paused,
      waiting: state?.waiting === true,
      loop: state?.loop ?? null,
      particles: frame ? frame.count : 0,
      renderFps: this.viewer.renderFps(),
      realtimeFactor: stats?.realtime_factor ?? this.realtime.value(now),
      stepsPerS: stats?.steps_per_s ?? state?.steps_per_s ?? null,
      stepMs: stats?.step_ms ?? state?.step_ms ?? null,
      dt: stats?.dt ?? state?.dt ?? null,
      dtBound: stats?.dt_bound ?? state?.dt_bound ?? null,
      time: frame ? frame.time : 0,
      bytesPerSecond: this.bytesPerSecond(),
      tier: stats?.tier ?? null,
      bits: stats?.bits ?? null,
      frameAgeMs: this.frameArrivedAt === null ? null : now - this.frameArrivedAt,
    });
    this.legend.update(this.shownAttribute);
  }
}

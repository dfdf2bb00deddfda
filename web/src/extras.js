// The viewer's extras, wired in one place: live plots, help and keyboard shortcuts, screenshot, room link QR popover, colour scales, particle picking.
import { Vector3 } from 'three';
import { el } from './util/dom.js';
import { PlotsPanel } from './ui/plots.js';
import { HelpOverlay } from './ui/help_overlay.js';
import { installShortcuts } from './ui/shortcuts.js';
import { saveScreenshot, screenshotName } from './ui/screenshot.js';
import { RoomLinkPopover } from './ui/room_link_popover.js';
import { PickCard } from './ui/pick_card.js';
import { ColourScales } from './colour_scale.js';
import { frameBox, particleBounds } from './render/camera_fit.js';
import { PickMarker } from './render/pick_marker.js';
import { ParticlePicker } from './interact/particle_picker.js';
import { pickMessage } from './interact/particle_pick.js';

/** app: the App (session, viewer, interaction, toolbar, legend, toast, elements, newestFrame). */
export class Extras {
  constructor(app) {
    this.app = app;
    const { session, viewer } = app;
    const host = document.body;
    this.lastScreenshot = null;
    this.picked = null;

    this.plots = new PlotsPanel(host);
    this.help = new HelpOverlay(host);
    this.roomLink = new RoomLinkPopover(host);
    this.pickCard = new PickCard(host, { onClose: () => this.clearPick() });
    this.marker = new PickMarker();
    viewer.scene.add(this.marker.group);

    this.scales = new ColourScales();
    app.legend.attachScales(this.scales, {
      setUser: (name, min, max) => this.setScale(() => this.scales.setUser(name, min, max)),
      setAuto: (name) => this.setScale(() => this.scales.setAuto(name)),
    });

    this.picker = new ParticlePicker(viewer, app.interaction, {
      frame: () => app.newestFrame,
      radius: () => viewer.particles.material.uniforms.radius.value,
      onPick: (pick) => this.pick(pick),
    });

    const button = (testid, text, title, onclick) => el('button', { testid, text, title, onclick, type: 'button' });
    const toolbar = app.elements.toolbar;
    const group = el('div', { className: 'group more extras' }, [
      button('btn-screenshot', 'Screenshot', 'Save the view as a PNG', () => this.screenshot()),
      button('btn-help', '?', 'Keyboard shortcuts and mouse controls (?)', () => this.help.toggle()),
    ]);
    const note = app.elements.watchNote;
    if (note && note.parentNode === toolbar) toolbar.insertBefore(group, note); // the watch note stays last
    else toolbar.append(group);
    // The plots and the pick card sit just under the toolbar, however many rows it wraps to.
    const below = () => document.documentElement.style.setProperty('--extras-top', `${Math.round(toolbar.getBoundingClientRect().bottom + 8)}px`);
    new ResizeObserver(below).observe(toolbar);
    below();

    session.on('stats', (stats) => this.plots.record(stats));
    let world = null;
    session.on('subscribed', (id) => { // also after a reconnect: only another world starts afresh
      if (id === world) return;
      world = id;
      this.plots.clear();
      this.clearPick();
    });
    installShortcuts({
      playPause: () => this.press(session.state?.paused ? 'btn-play' : 'btn-pause'),
      step: () => this.press('btn-step'),
      reset: () => this.press('btn-reset'),
      frame: () => this.frameFluid(),
      colour: (attribute) => this.colour(attribute),
      plots: () => this.plots.toggle(),
      help: () => this.help.toggle(),
      cancel: () => this.cancel(),
    });
  }

  /** Presses a toolbar button by its data-testid (a disabled one, for watchers, does nothing). */
  press(testid) {
    this.app.elements.toolbar.querySelector(`[data-testid="${testid}"]`)?.click();
  }

  /** Picks a colour mode through the toolbar's picker, as if chosen there. */
  colour(attribute) {
    const select = this.app.elements.toolbar.querySelector('[data-testid="select-attribute"]');
    if (!select || select.value === (attribute ?? '')) return;
    select.value = attribute ?? '';
    select.dispatchEvent(new Event('change'));
  }

  /** Called by the app for every shown frame: the colour scale of its attribute. */
  frameShown(frame, shown) {
    if (this.picked && frame.time < this.picked.time) this.clearPick(); // reset or rewind: the pick is gone
    const section = shown ? frame.attributes[shown.name] : null;
    const texels = this.scales.observe(shown?.name, section, frame.count);
    if (texels) this.app.viewer.particles.setColormapTexels(shown.name, texels);
  }

  setScale(change) {
    try {
      const texels = change();
      const shown = this.scales.shown;
      if (texels && shown) this.app.viewer.particles.setColormapTexels(shown.name, texels);
      this.app.legend.update(this.app.shownAttribute);
    } catch (error) {
      this.app.toast.show({ code: error.code ?? 'bad_value', field: error.field ?? null, message: error.message });
    }
  }

  /** F: the camera onto the particles of the shown frame (the domain when there is none). */
  frameFluid() {
    const { viewer } = this.app;
    const box = particleBounds(this.app.newestFrame) ?? viewer.domain;
    if (!box) return;
    frameBox(viewer, box.min, box.max, 2 * viewer.particles.material.uniforms.radius.value);
  }

  screenshot() {
    const name = screenshotName(this.app.session.world, new Date());
    const { session, newestFrame, legend } = this.app;
    const state = session.state;
    const caption = {
      title: state ? `${state.name ?? `world ${session.world}`}${state.scene && state.scene !== state.name ? ` (${state.scene})` : ''}` : '',
      time: newestFrame ? newestFrame.time : null,
      legend: legend.captionView(),
    };
    const saved = saveScreenshot(this.app.viewer, name, caption);
    this.lastScreenshot = { name, bytes: saved.bytes, width: saved.width, height: saved.height, texts: saved.texts };
  }

  /** The toolbar's Room link button: the popover with the QR code; the link is copied. */
  showRoomLink(link, warning = null) {
    this.roomLink.show(link, this.app.elements.toolbar.querySelector('[data-testid="btn-room-link"]'), warning);
  }

  pick(pick) {
    const { session, viewer } = this.app;
    if (!pick || session.world === null) {
      this.clearPick();
      return;
    }
    const radius = viewer.particles.material.uniforms.radius.value;
    const world = session.world;
    this.picked = { sent: pick.position, particle: undefined, time: this.app.newestFrame?.time ?? 0 };
    this.marker.show(pick.position, radius);
    this.pickCard.pending(pick.position);
    const record = this.picked;
    session.request(pickMessage(world, pick.position), {
      onAck: (ack) => {
        if (this.picked !== record) return; // a newer pick or another world
        const particle = ack.applied?.particle ?? null;
        record.particle = particle;
        this.pickCard.particle(particle, this.app.newestFrame?.time ?? null, session.state?.fluids);
        if (particle) this.marker.show(particle.position, radius);
        else this.marker.hide();
      },
      onError: (error) => {
        if (this.picked !== record) return;
        record.error = { code: error.code, message: error.message };
        this.pickCard.failed(error);
      },
    });
  }

  clearPick() {
    this.picked = null;
    this.marker.hide();
    this.pickCard.hide();
  }

  /** Esc: closes the overlays and stops placing an emitter. */
  cancel() {
    this.help.hide();
    this.roomLink.hide();
    this.clearPick();
    this.app.legend.toggleEditor(false);
    if (this.app.interaction.placing) {
      this.app.interaction.setPlacing(false);
      this.app.refreshControls();
    }
  }

  /** For the test hook: where a point (m) is on the page, in client pixels. */
  project(position) {
    const { viewer } = this.app;
    const p = new Vector3().fromArray(position).project(viewer.camera);
    const rect = viewer.canvas.getBoundingClientRect();
    return [rect.left + ((p.x + 1) / 2) * rect.width, rect.top + ((1 - p.y) / 2) * rect.height];
  }

  /** For the test hook: the extras' state. */
  testState() {
    const view = this.scales.view(this.app.shownAttribute);
    return {
      colourScale: view ? { name: view.name, min: view.min, max: view.max, auto: view.auto } : null,
      picked: this.picked ? structuredClone(this.picked) : null,
      marker: this.marker.group.visible ? this.marker.group.position.toArray() : null,
      plotSamples: this.plots.ring.length,
      lastScreenshot: this.lastScreenshot,
      target: this.app.viewer.controls ? this.app.viewer.controls.target.toArray() : null,
      camera: this.app.viewer.camera.position.toArray(),
      radius: this.app.viewer.particles.material.uniforms.radius.value,
    };
  }
}

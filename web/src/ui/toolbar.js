// The toolbar: play / pause / step, restart / reset, world, scene and solver pickers, colour and max-fps choice, emitters, room and camera; on a phone all but play / pause / step sit in its menu.
import { el, setOptions } from '../util/dom.js';
import { sceneLabel, sceneTitle } from './scene_words.js';
import { ATTRIBUTES } from '../links.js';

export const MAX_FPS_CHOICES = [10, 15, 30, 60, 120];

/** A world in the picker: id, scene (the subscribed world's from its newest state), its name when different, hidden mark. */
export function worldLabel(world, { world: current, scene, name }) {
  const isCurrent = world.id === current;
  const shownScene = (isCurrent && scene) || world.scene || world.name;
  const shownName = (isCurrent && name) || world.name;
  const named = shownName && shownName !== shownScene ? `${shownName} · ${shownScene}` : shownScene;
  return `${world.id}: ${named}${world.hidden ? ' (hidden)' : ''}`;
}

function labelled(text, control) {
  return el('label', { className: 'picker' }, [el('span', { text }), control]);
}

export class Toolbar {
  /**
   * actions: play, pause, step, restart, reset, loadScene(name), openScene, setSolver(name),
   * selectWorld(id), toggleHidden, setAttribute(name|null), toggleAir, setMaxFps(n), addEmitter,
   * toggleEmitterMode, copyRoomLink, toggleBroadcast, toggleFollow, resetView
   */
  constructor(element, actions) {
    const button = (testid, text, title, onclick) => el('button', { testid, text, title, onclick, type: 'button' });
    this.play = button('btn-play', '▶ Play', 'Resume the simulation (space)', actions.play);
    this.pause = button('btn-pause', '❚❚ Pause', 'Pause the simulation (space)', actions.pause);
    this.step = button('btn-step', 'Step', 'Advance one frame and stay paused (.)', actions.step);
    this.restart = button('btn-restart', 'Restart with these settings',
      'Rebuild the world from its scene with every value the panel shows, build-time ones included', actions.restart);
    this.reset = button('btn-reset', 'Reset to scene',
      'Rebuild the world from its scene with the scene’s own values: changes made in the panel are discarded (R)', actions.reset);
    this.openScene = button('btn-open-scene', 'Open…', 'Load a scene file from this computer into this world (checked by the server)', actions.openScene);
    this.hideWorld = button('btn-hide-world', 'Hide', 'Hide this world from the room: watchers no longer see it', actions.toggleHidden);
    this.broadcast = button('btn-broadcast-camera', 'Share my view', 'Send your camera to the room: watchers can follow it', actions.toggleBroadcast);
    this.follow = button('btn-follow-camera', 'Follow presenter', 'Move your camera with the presenter’s', actions.toggleFollow);
    this.resetView = button('btn-reset-view', 'Reset view', 'Put the camera back in front of the whole domain', actions.resetView);
    this.addEmitter = button('btn-add-emitter', '+ Emitter', 'Add an emitter above the fluid, pointing down (the server picks the free space and says when a closed tank fills)', actions.addEmitter);
    this.emitterMode = button('btn-emitter-mode', 'Place emitter…', 'Click on a wall, the floor or a collider to place an emitter there', actions.toggleEmitterMode);
    this.share = button('btn-room-link', 'Room link', 'Copy the link of this world without the control token', actions.copyRoomLink);
    this.air = button('btn-air', 'Hide air', 'Hide or show the trapped air (the fluids of kind air): for you only', actions.toggleAir);
    // phones (style.css): the groups after play / pause / step fold into this menu, one tap away
    this.menu = button('btn-menu', '☰ Menu', 'Scene, colour, room link and the other controls', () => this.setMenuOpen(!this.menuOpen));
    this.menu.classList.add('menu-toggle');
    this.menu.setAttribute('aria-expanded', 'false');
    this.element = element;
    this.menuOpen = false;

    this.scene = el('select', { testid: 'select-scene', title: 'Load a shipped scene into this world', onchange: () => actions.loadScene(this.scene.value) });
    this.solver = el('select', {
      testid: 'select-solver', title: 'Switch the solver of this world; the particles stay where they are', onchange: () => actions.setSolver(this.solver.value),
    });
    this.world = el('select', { testid: 'select-world', onchange: () => actions.selectWorld(Number(this.world.value)) });
    this.attribute = el('select', {
      testid: 'select-attribute', onchange: () => actions.setAttribute(this.attribute.value || null),
    });
    setOptions(this.attribute, [{ value: '', label: 'water (plain)' }, ...ATTRIBUTES.map((a) => ({ value: a, label: a }))], '');
    this.maxFps = el('select', { testid: 'select-max-fps', onchange: () => actions.setMaxFps(Number(this.maxFps.value)) });
    setOptions(this.maxFps, MAX_FPS_CHOICES.map((n) => ({ value: n, label: `${n} fps` })), 30);

    this.controlOnly = [this.play, this.pause, this.step, this.restart, this.reset, this.addEmitter, this.emitterMode, this.scene,
      this.openScene, this.solver, this.hideWorld];
    const more = (children) => el('div', { className: 'group more' }, children);
    element.replaceChildren(
      el('div', { className: 'group' }, [this.play, this.pause, this.step, this.menu]),
      // on a phone the menu lists the scene, the colour and the room link first
      more([labelled('scene', this.scene), this.openScene, labelled('colour', this.attribute), this.air, this.share]),
      more([this.restart, this.reset]),
      more([labelled('world', this.world), this.hideWorld, labelled('solver', this.solver), labelled('max', this.maxFps)]),
      more([this.addEmitter, this.emitterMode]),
      more([this.broadcast, this.follow, this.resetView]),
    );
  }

  /** Opens or closes the phone menu (the groups after play / pause / step; always shown on wider screens). */
  setMenuOpen(open) {
    this.menuOpen = Boolean(open);
    this.element.classList.toggle('menu-open', this.menuOpen);
    this.menu.setAttribute('aria-expanded', String(this.menuOpen));
    this.menu.textContent = this.menuOpen ? '✕ Close' : '☰ Menu';
  }

  /**
   * v: {canControl, worlds, world, scenes, scene, solvers ([{name, description}]), solver, paused,
   * attribute, maxFps, emitterMode, pending (edited build-time values), hidden, broadcasting,
   * following, presenterLive (the world's camera is being broadcast), hasAir (the world has a fluid of kind
   * air), airHidden}
   */
  update(v) {
    for (const control of this.controlOnly) control.disabled = !v.canControl || v.world === null;
    this.play.setAttribute('aria-pressed', String(v.paused === false));
    this.pause.setAttribute('aria-pressed', String(v.paused === true));
    this.emitterMode.setAttribute('aria-pressed', String(v.emitterMode));
    this.emitterMode.textContent = v.emitterMode ? 'Placing: click a surface (Esc)' : 'Place emitter…';
    this.restart.textContent = v.pending ? `Restart with these settings (${v.pending} changed)` : 'Restart with these settings';
    this.restart.classList.toggle('attention', Boolean(v.pending));
    this.hideWorld.hidden = !v.canControl;
    this.hideWorld.textContent = v.hidden ? 'Show to room' : 'Hide';
    this.hideWorld.setAttribute('aria-pressed', String(Boolean(v.hidden)));
    this.broadcast.hidden = !v.canControl;
    this.broadcast.setAttribute('aria-pressed', String(Boolean(v.broadcasting)));
    this.broadcast.textContent = v.broadcasting ? 'Sharing my view' : 'Share my view';
    this.follow.hidden = v.canControl;
    this.follow.disabled = !v.presenterLive && !v.following;
    this.follow.setAttribute('aria-pressed', String(Boolean(v.following)));
    setOptions(this.world, v.worlds.map((w) => ({ value: w.id, label: worldLabel(w, v) })), v.world);
    if (document.activeElement !== this.scene) {
      const scenes = v.scenes.map((s) => ({ value: s.name, label: sceneLabel(s, v.backend) }));
      if (v.scene && !scenes.some((s) => s.value === v.scene)) scenes.unshift({ value: v.scene, label: v.scene });
      setOptions(this.scene, scenes, v.scene);
      // each option's tooltip is its scene's description; the picker's the chosen one's
      [...this.scene.options].forEach((option) => {
        const entry = v.scenes.find((s) => s.name === option.value);
        option.title = entry ? sceneTitle(entry, v.backend) : '';
      });
      const chosen = v.scenes.find((s) => s.name === v.scene);
      this.scene.title = chosen ? sceneTitle(chosen, v.backend) : 'Load a shipped scene';
    }
    if (document.activeElement !== this.solver) {
      setOptions(this.solver, (v.solvers ?? []).map((s) => ({ value: s.name, label: s.name })), v.solver);
      this.solver.title = (v.solvers ?? []).map((s) => `${s.name}: ${s.description}`).join('\n') || this.solver.title;
    }
    this.attribute.value = v.attribute || '';
    this.air.hidden = !v.hasAir;
    this.air.textContent = v.airHidden ? 'Show air' : 'Hide air';
    this.air.setAttribute('aria-pressed', String(Boolean(v.airHidden)));
    if (MAX_FPS_CHOICES.includes(v.maxFps)) this.maxFps.value = String(v.maxFps);
  }
}

// The toolbar: play / pause / step / reset, scene, solver and world pickers, attribute and max-fps choice, emitter buttons.
import { el, setOptions } from '../util/dom.js';
import { ATTRIBUTES } from '../links.js';

export const MAX_FPS_CHOICES = [10, 15, 30, 60, 120];

function labelled(text, control) {
  return el('label', { className: 'picker' }, [el('span', { text }), control]);
}

export class Toolbar {
  /** actions: play, pause, step, reset, loadScene(name), setSolver(name), selectWorld(id), setAttribute(name|null), setMaxFps(n), addEmitter, toggleEmitterMode, copyRoomLink */
  constructor(element, actions) {
    const button = (testid, text, title, onclick) => el('button', { testid, text, title, onclick, type: 'button' });
    this.play = button('btn-play', '▶ Play', 'Resume the simulation', actions.play);
    this.pause = button('btn-pause', '❚❚ Pause', 'Pause the simulation', actions.pause);
    this.step = button('btn-step', 'Step', 'Advance one frame and stay paused', actions.step);
    this.reset = button('btn-reset', 'Reset', 'Rebuild the world from its scene', actions.reset);
    this.addEmitter = button('btn-add-emitter', '+ Emitter', 'Add an emitter at the top centre, pointing down', actions.addEmitter);
    this.emitterMode = button('btn-emitter-mode', 'Place emitter…', 'Click on a wall, the floor or a collider to place an emitter there', actions.toggleEmitterMode);
    this.share = button('btn-room-link', 'Room link', 'Copy the link of this world without the control token', actions.copyRoomLink);

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

    this.controlOnly = [this.play, this.pause, this.step, this.reset, this.addEmitter, this.emitterMode, this.scene, this.solver];
    element.replaceChildren(
      el('div', { className: 'group' }, [this.play, this.pause, this.step, this.reset]),
      el('div', { className: 'group' }, [labelled('world', this.world), labelled('scene', this.scene), labelled('solver', this.solver)]),
      el('div', { className: 'group' }, [labelled('colour', this.attribute), labelled('max', this.maxFps)]),
      el('div', { className: 'group' }, [this.addEmitter, this.emitterMode, this.share]),
    );
  }

  /** v: {canControl, worlds, world, scenes, scene, solvers ([{name, description}]), solver, paused, attribute, maxFps, emitterMode} */
  update(v) {
    for (const control of this.controlOnly) control.disabled = !v.canControl || v.world === null;
    this.play.setAttribute('aria-pressed', String(v.paused === false));
    this.pause.setAttribute('aria-pressed', String(v.paused === true));
    this.emitterMode.setAttribute('aria-pressed', String(v.emitterMode));
    this.emitterMode.textContent = v.emitterMode ? 'Placing: click a surface' : 'Place emitter…';
    setOptions(this.world, v.worlds.map((w) => ({ value: w.id, label: `${w.id}: ${w.name}` })), v.world);
    if (document.activeElement !== this.scene) {
      const scenes = v.scenes.map((s) => ({ value: s.name, label: s.name }));
      if (v.scene && !scenes.some((s) => s.value === v.scene)) scenes.unshift({ value: v.scene, label: v.scene });
      setOptions(this.scene, scenes, v.scene);
    }
    if (document.activeElement !== this.solver) {
      setOptions(this.solver, (v.solvers ?? []).map((s) => ({ value: s.name, label: s.name })), v.solver);
      this.solver.title = (v.solvers ?? []).map((s) => `${s.name}: ${s.description}`).join('\n') || this.solver.title;
    }
    this.attribute.value = v.attribute || '';
    if (MAX_FPS_CHOICES.includes(v.maxFps)) this.maxFps.value = String(v.maxFps);
  }
}

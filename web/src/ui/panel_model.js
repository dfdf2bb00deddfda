// Turns the welcome's parameter table into panel entries: control kind, human label with unit, range, step, group, help.
import { checkNumber, formatBound, prettyUnit } from './field_check.js';
import { logScale } from './slider_scale.js';

export const INIT_NOTE = 'used when the world is built: takes effect with “Restart with these settings”';
export const WATCH_NOTE = 'Watching: this link has no control token';

/** The table's human label, or the name with its underscores as spaces when the table has none. */
export function humanName(parameter) {
  if (parameter.label) return parameter.label;
  const words = parameter.name.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Label of a parameter: its human name, with the unit in parentheses unless dimensionless ("1") or none. */
export function parameterLabel(parameter) {
  const unit = prettyUnit(parameter.unit);
  return unit ? `${humanName(parameter)} (${unit})` : humanName(parameter);
}

/** Largest power of ten (1e-12 to 1e6) of which x is a multiple; Infinity for 0. */
export function decimalUnit(x) {
  if (x === 0) return Infinity;
  for (let k = 6; k >= -12; k--) {
    const unit = 10 ** k;
    const ratio = Math.abs(x) / unit;
    if (Math.round(ratio) >= 1 && Math.abs(ratio - Math.round(ratio)) < 1e-6 * ratio) return unit;
  }
  return 1e-12;
}

/**
 * Slider step of a float parameter: about 10,000 steps across the range, but fine enough that
 * the minimum and the default lie on the grid (lil-gui snaps values to min + k step).
 */
export function floatStep(parameter) {
  const span = parameter.max - parameter.min;
  const coarse = 10 ** Math.floor(Math.log10(span / 10000));
  return Math.min(coarse, decimalUnit(parameter.min), decimalUnit(parameter.default));
}

/** Plain-language help (the table's `help`, else its description), the range and default, and when it applies. */
function tooltip(parameter) {
  const parts = [parameter.help || parameter.description || ''];
  if (parameter.type === 'float' || parameter.type === 'int') {
    const unit = prettyUnit(parameter.unit);
    parts.push(`From ${formatBound(parameter.min)} to ${formatBound(parameter.max)}${unit ? ` ${unit}` : ''}; default ${formatBound(parameter.default)}.`);
  } else if (parameter.type === 'enum') {
    parts.push(`One of ${parameter.choices.join(', ')}; default ${parameter.default}.`);
  }
  if (parameter.live === false) parts.push(`Set when built: ${INIT_NOTE}.`);
  return parts.filter(Boolean).join(' ');
}

/** {"water.viscosity": 1, ...}: each fluid's values of the fluid-scoped parameters (state.fluids), by scoped name. */
export function fluidValues(fluids) {
  const values = {};
  for (const fluid of Array.isArray(fluids) ? fluids : []) {
    for (const [key, value] of Object.entries(fluid)) {
      if (key !== 'name' && key !== 'colour') values[`${fluid.name}.${key}`] = value;
    }
  }
  return values;
}

/** Parameters a 2D world ignores (it lives in the plane z = 0: the server zeroes gravity_z there),
 * left out of its panel. */
export const ONLY_3D = new Set(['gravity_z']);

/**
 * One entry per parameter, in table order: {name, label, title (the label without unit), unit,
 * kind ('number' | 'boolean' | 'enum'), integer, min, max, step, choices, live, group ('live' |
 * 'init'), fluid (the fluid's name for a fluid-scoped entry, else null), disabled, reason
 * ('watch' | null), tooltip, defaultValue, solvers (names, null for all), scale (the log
 * slider's scale of slider_scale.js for a range wider than two decades, else null), derived (the
 * server derives it from others unless given: smoothing_radius from smoothing_ratio)}. A parameter with a
 * fluid scope (`fluid_scope`) gives one entry per fluid of `fluids` (state.fluids), named
 * "FLUID.NAME", and none of its own. A 2D world (dimensions 2) leaves out ONLY_3D. role is the welcome's 'control' or 'watch'. Build-time
 * ('init') entries stay editable for a controller: they are sent with “Restart with these
 * settings”, never with `set`.
 */
export function panelModel(parameters, role, fluids = [], dimensions = 3) {
  const entries = [];
  for (const parameter of parameters) {
    if (dimensions === 2 && ONLY_3D.has(parameter.name)) continue;
    if (!parameter.fluid_scope) entries.push(panelEntry(parameter, role, null));
  }
  for (const fluid of Array.isArray(fluids) ? fluids : []) {
    for (const parameter of parameters) {
      if (parameter.fluid_scope) entries.push(panelEntry(parameter, role, String(fluid.name)));
    }
  }
  return entries;
}

function panelEntry(parameter, role, fluid) {
  const watching = role !== 'control';
  {
    const entry = {
      name: fluid ? `${fluid}.${parameter.name}` : parameter.name,
      label: parameterLabel(parameter),
      title: fluid ? `${humanName(parameter)} of ${fluid}` : humanName(parameter),
      fluid,
      unit: parameter.unit || '',
      kind: null,
      integer: false,
      min: null,
      max: null,
      step: null,
      choices: null,
      live: parameter.live !== false,
      group: parameter.live !== false ? 'live' : 'init',
      disabled: watching,
      reason: watching ? 'watch' : null,
      tooltip: tooltip(parameter),
      defaultValue: parameter.default,
      solvers: parameter.all_solvers || !Array.isArray(parameter.solvers) ? null : [...parameter.solvers],
      scale: null,
      derived: parameter.derived === true,
    };
    if (parameter.type === 'float' || parameter.type === 'int') {
      Object.assign(entry, { kind: 'number', min: parameter.min, max: parameter.max });
      entry.integer = parameter.type === 'int';
      entry.step = entry.integer ? 1 : floatStep(parameter);
      entry.scale = logScale({ min: entry.min, max: entry.max, defaultValue: entry.defaultValue, integer: entry.integer });
    } else if (parameter.type === 'bool') {
      entry.kind = 'boolean';
    } else if (parameter.type === 'enum') {
      Object.assign(entry, { kind: 'enum', choices: [...parameter.choices] });
    } else {
      throw new TypeError(`parameter ${parameter.name} has unknown type ${parameter.type}`);
    }
    return entry;
  }
}

/** Whether the solver `solver` reads the entry's parameter (every entry when the solver is unknown). */
export function readBySolver(entry, solver) {
  return !solver || entry.solvers === null || entry.solvers.includes(solver);
}

/**
 * The value to send for an entry after the user changed it, or a human error naming the field.
 * raw is what was typed (text) or what a slider gave (a number): numbers are checked against the
 * range (the server checks again, never clamped), enums against the choices.
 */
export function valueToSend(entry, raw) {
  if (entry.kind === 'boolean') return { value: Boolean(raw) };
  if (entry.kind === 'enum') {
    return entry.choices.includes(raw) ? { value: raw } : { error: `${entry.title}: choose one of ${entry.choices.join(', ')}` };
  }
  return checkNumber(typeof raw === 'number' ? String(raw) : raw, {
    label: entry.title, min: entry.min, max: entry.max, unit: entry.unit, integer: entry.integer,
  });
}

/**
 * The values “Restart with these settings” sends with `reset`, so that the scene's own values
 * replace none of what the panel shows: for the world's solver, every value that differs from
 * the table's default (a scene's or a person's choice) and every value a person touched (changed
 * back to the default, too); at most 64 (the protocol's limit). Untouched defaults are left to
 * the server, which may hold them to its own limits (max_particles and the particle budget). A
 * derived value (the world reports the smoothing radius it made of the ratio) goes only when
 * touched, so that a new spacing alone keeps the ratio instead of the old radius.
 */
export function restartValues(model, panelValues, solver, touched = new Set()) {
  const values = {};
  for (const entry of model) {
    if (!readBySolver(entry, solver) || !(entry.name in panelValues)) continue;
    const value = panelValues[entry.name];
    const chosen = entry.derived ? false : value !== entry.defaultValue;
    if (chosen || touched.has(entry.name)) values[entry.name] = value;
  }
  const names = Object.keys(values).slice(0, 64);
  return Object.fromEntries(names.map((n) => [n, values[n]]));
}

/**
 * The terms a choice turns on ("none": off), and the parameters that only matter while it is on:
 * {choice (the enum's name), label, members(name) (a parameter of the term, by its name without a
 * fluid)}. The panel puts each term's own parameters in a folder titled with the choice, collapsed
 * while it is "none", and hides the fluids' parameters of a term that is off.
 */
export const TERMS = [
  { choice: 'tension', label: 'Tension', members: (n) => n.startsWith('tension_') || ['surface_tension', 'interface_tension', 'polarity'].includes(n) },
  { choice: 'air', label: 'Trapped air', members: (n) => n.startsWith('air_') || n === 'max_air_particles' },
  { choice: 'heat_conduction', label: 'Heat', members: (n) => n.startsWith('heat_') || ['thermal_diffusivity', 'specific_heat', 'thermal_expansion'].includes(n) },
];

/** The term an entry's parameter belongs to (its choice or one of its members), or null. */
export function termOf(entry) {
  const name = entry.fluid ? entry.name.slice(entry.fluid.length + 1) : entry.name;
  return TERMS.find((t) => t.choice === name || t.members(name)) ?? null;
}

/** Whether a term is on in values (its choice is not "none"; unknown counts as on). */
export function termOn(term, values) {
  return values[term.choice] !== 'none';
}

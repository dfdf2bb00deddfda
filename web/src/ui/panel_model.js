// Turns the welcome's parameter table into panel entries: control kind, label with unit, range, step, disabled state.

export const INIT_NOTE = 'set when the world is built: applies on reset or load scene';
export const WATCH_NOTE = 'Watching: this link has no control token';

/** Label of a parameter: its name, with the unit in parentheses unless dimensionless ("1") or none. */
export function parameterLabel(parameter) {
  const unit = parameter.unit;
  return unit && unit !== '1' ? `${parameter.name} (${unit})` : parameter.name;
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

function tooltip(parameter) {
  const parts = [parameter.description || ''];
  if (parameter.type === 'float' || parameter.type === 'int') {
    const unit = parameter.unit && parameter.unit !== '1' ? ` ${parameter.unit}` : '';
    parts.push(`Range ${parameter.min} to ${parameter.max}${unit}; default ${parameter.default}.`);
  } else if (parameter.type === 'enum') {
    parts.push(`One of ${parameter.choices.join(', ')}; default ${parameter.default}.`);
  }
  if (!parameter.live) parts.push(`Not live: ${INIT_NOTE}.`);
  return parts.filter(Boolean).join(' ');
}

/**
 * One entry per parameter, in table order: {name, label, kind ('number' | 'boolean' | 'enum'),
 * integer, min, max, step, choices, live, group ('live' | 'init'), disabled, reason ('watch' |
 * 'init' | null), tooltip, defaultValue, solvers (names, null for all)}. role is the welcome's
 * 'control' or 'watch'.
 */
export function panelModel(parameters, role) {
  const watching = role !== 'control';
  return parameters.map((parameter) => {
    const entry = {
      name: parameter.name,
      label: parameterLabel(parameter),
      kind: null,
      integer: false,
      min: null,
      max: null,
      step: null,
      choices: null,
      live: parameter.live !== false,
      group: parameter.live !== false ? 'live' : 'init',
      disabled: watching || parameter.live === false,
      reason: watching ? 'watch' : parameter.live === false ? 'init' : null,
      tooltip: tooltip(parameter),
      defaultValue: parameter.default,
      solvers: parameter.all_solvers || !Array.isArray(parameter.solvers) ? null : [...parameter.solvers],
    };
    if (parameter.type === 'float' || parameter.type === 'int') {
      Object.assign(entry, { kind: 'number', min: parameter.min, max: parameter.max });
      entry.integer = parameter.type === 'int';
      entry.step = entry.integer ? 1 : floatStep(parameter);
    } else if (parameter.type === 'bool') {
      entry.kind = 'boolean';
    } else if (parameter.type === 'enum') {
      Object.assign(entry, { kind: 'enum', choices: [...parameter.choices] });
    } else {
      throw new TypeError(`parameter ${parameter.name} has unknown type ${parameter.type}`);
    }
    return entry;
  });
}

/** Whether the solver `solver` reads the entry's parameter (every entry when the solver is unknown). */
export function readBySolver(entry, solver) {
  return !solver || entry.solvers === null || entry.solvers.includes(solver);
}

/**
 * The value to send for an entry after the user changed it, or an error string. Numbers are
 * checked against the range (the server checks again), ints rounded, enums against choices.
 */
export function valueToSend(entry, raw) {
  if (entry.kind === 'boolean') return { value: Boolean(raw) };
  if (entry.kind === 'enum') {
    return entry.choices.includes(raw) ? { value: raw } : { error: `${entry.name}: expected one of ${entry.choices.join(', ')}` };
  }
  const x = Number(raw);
  if (!Number.isFinite(x)) return { error: `${entry.name}: expected a number` };
  const value = entry.integer ? Math.round(x) : x;
  if (value < entry.min || value > entry.max) {
    return { error: `${entry.name}: expected a number from ${entry.min} to ${entry.max}, got ${value}` };
  }
  return { value };
}

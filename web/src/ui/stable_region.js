// Where a parameter's slider turns risky: the known stability limits of the world's values (the acoustic CFL limit of weakly compressible SPH, the CFL number).

/** c dt / h above this is unstable for WCSPH (the server's blow-up check names the same limit). */
export const ACOUSTIC_CFL_LIMIT = 0.4;
/** cfl_number above this lets the adaptive step grow past the stable region: the default, 0.4
 *  (Monaghan 1992, Becker and Teschner 2007), is safe, and so is a little more; risky from half. */
export const CFL_NUMBER_LIMIT = 0.5;

/** The smoothing radius h of values: smoothing_radius, else smoothing_ratio × particle_spacing; null when unknown. */
export function smoothingRadius(values) {
  if (values.smoothing_radius > 0) return values.smoothing_radius;
  if (values.smoothing_ratio > 0 && values.particle_spacing > 0) return values.smoothing_ratio * values.particle_spacing;
  return null;
}

/** The speed of sound c of the pressure law: speed_of_sound for Tait, √stiffness for the linear law; null when unknown. */
export function soundSpeed(values) {
  if (values.equation_of_state === 'linear') return values.stiffness > 0 ? Math.sqrt(values.stiffness) : null;
  return values.speed_of_sound > 0 ? values.speed_of_sound : null;
}

/**
 * The value of parameter `name` above which the world is likely to blow up, with why, or null
 * where no limit is known: {from, why}. values: the world's values (state.values); solver: its
 * solver. The acoustic limit c dt / h ≤ 0.4 binds time_step, speed_of_sound and stiffness of the
 * SPH solver (PBF has no speed of sound), unless adaptive_time_step shortens the step itself.
 */
export function riskyFrom(name, values, solver) {
  if (name === 'cfl_number') return { from: CFL_NUMBER_LIMIT, why: `above ${CFL_NUMBER_LIMIT} the step can outgrow the stable region` };
  const acoustic = solver === 'sph' && values.adaptive_time_step !== true;
  const h = smoothingRadius(values);
  if (!acoustic || h === null) return null;
  const linear = values.equation_of_state === 'linear';
  if (name === 'time_step') {
    const c = soundSpeed(values);
    return c === null ? null : { from: (ACOUSTIC_CFL_LIMIT * h) / c, why: 'a longer step outruns the speed of sound (c·dt/h above 0.4)' };
  }
  if (!(values.time_step > 0)) return null;
  const fastestSound = (ACOUSTIC_CFL_LIMIT * h) / values.time_step;
  if (name === 'speed_of_sound' && !linear) return { from: fastestSound, why: 'a faster sound outruns the time step (c·dt/h above 0.4)' };
  if (name === 'stiffness' && linear) return { from: fastestSound ** 2, why: 'a stiffer fluid outruns the time step (c·dt/h above 0.4)' };
  return null;
}

/**
 * The warning for turning adaptive_time_step off (values: the world's, with it still on): when the
 * step that then applies, time_step, is above the acoustic limit 0.4 h / c of WCSPH, a sentence in
 * the panel's words (labels: name -> label); else null.
 */
export function adaptiveOffWarning(values, solver, labels = {}) {
  const risk = riskyFrom('time_step', { ...values, adaptive_time_step: false }, solver);
  if (!risk || !(values.time_step > risk.from)) return null;
  const label = (name) => labels[name] ?? name;
  const digits = (x) => Number(x.toPrecision(2));
  return `${label('time_step')} ${values.time_step} s is above the acoustic limit ${digits(risk.from)} s (c·dt/h above 0.4): `
    + `with ${label('adaptive_time_step')} off the world will likely blow up; lower ${label('time_step')} to ${digits(risk.from)} s or less`;
}

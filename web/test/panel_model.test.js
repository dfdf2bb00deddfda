// The panel model from the parameter table: kinds, labels with units, ranges and steps, live/init, watch clients.
import { describe, it, expect } from 'vitest';
import { INIT_NOTE, decimalUnit, floatStep, fluidValues, panelModel, parameterLabel, readBySolver, restartValues, valueToSend } from '../src/ui/panel_model.js';

// Entries as `fluidcast params --json` gives them (welcome.parameters).
const TABLE = [
  { name: 'time_step', type: 'float', unit: 's', min: 1e-6, max: 0.02, default: 0.0005, live: true, description: 'Fixed simulation time step dt.' },
  { name: 'substeps', type: 'int', unit: 'steps', min: 1, max: 1000, default: 20, live: true, description: 'Solver steps per frame.' },
  { name: 'cfl_number', type: 'float', unit: '1', min: 0, max: 1, default: 0, live: true, description: 'CFL limit.' },
  { name: 'gravity_y', type: 'float', unit: 'm/s^2', min: -100, max: 100, default: -9.81, live: true, description: 'Gravity, y component.' },
  { name: 'particle_spacing', type: 'float', unit: 'm', min: 0.001, max: 1, default: 0.02, live: false, description: 'Rest spacing.' },
  { name: 'equation_of_state', type: 'enum', choices: ['tait', 'linear'], default: 'tait', live: true, description: 'Pressure law.' },
  { name: 'stiffness', type: 'float', unit: 'Pa m^3/kg', min: 1, max: 1e6, default: 400, live: true, description: 'k.' },
  { name: 'clamp_negative_pressure', type: 'bool', unit: '', default: true, live: true, description: 'No tension.' },
];

const byName = (model) => Object.fromEntries(model.map((e) => [e.name, e]));

describe('panelModel', () => {
  it('makes one entry per parameter, in table order, of the right kind', () => {
    const model = panelModel(TABLE, 'control');
    expect(model.map((e) => e.name)).toEqual(TABLE.map((p) => p.name));
    expect(model.map((e) => e.kind)).toEqual(['number', 'number', 'number', 'number', 'number', 'enum', 'number', 'boolean']);
    const e = byName(model);
    expect(e.substeps).toMatchObject({ integer: true, min: 1, max: 1000, step: 1 });
    expect(e.gravity_y).toMatchObject({ integer: false, min: -100, max: 100 });
    expect(e.equation_of_state.choices).toEqual(['tait', 'linear']);
  });

  it('labels with the table\'s human label and the unit as people write it; falls back to the name in words', () => {
    const table = TABLE.map((p) => (p.name === 'gravity_y' ? { ...p, label: 'Gravity (y)', help: 'How hard the fluid is pulled up or down.' } : p));
    const e = byName(panelModel(table, 'control'));
    expect(e.gravity_y.label).toBe('Gravity (y) (m/s²)');
    expect(e.gravity_y.title).toBe('Gravity (y)');
    expect(e.cfl_number.label).toBe('Cfl number');
    expect(e.clamp_negative_pressure.label).toBe('Clamp negative pressure');
    expect(parameterLabel({ name: 'rest_density', label: 'Rest density', unit: 'kg/m^3' })).toBe('Rest density (kg/m³)');
  });

  it('gives the plain help (or the description), the range and the default as the tooltip', () => {
    const table = TABLE.map((p) => (p.name === 'gravity_y' ? { ...p, help: 'How hard the fluid is pulled up or down.' } : p));
    const e = byName(panelModel(table, 'control'));
    expect(e.gravity_y.tooltip).toBe('How hard the fluid is pulled up or down. From -100 to 100 m/s²; default -9.81.');
    expect(e.substeps.tooltip).toBe('Solver steps per frame. From 1 to 1000 steps; default 20.');
    expect(e.equation_of_state.tooltip).toContain('One of tait, linear');
  });

  it('groups build-time parameters apart but leaves them editable for controllers, saying when they apply', () => {
    const e = byName(panelModel(TABLE, 'control'));
    expect(e.particle_spacing).toMatchObject({ live: false, group: 'init', disabled: false, reason: null });
    expect(e.particle_spacing.tooltip).toContain(INIT_NOTE);
    expect(e.gravity_y).toMatchObject({ live: true, group: 'live', disabled: false, reason: null });
  });

  it('disables every entry for watch clients', () => {
    const model = panelModel(TABLE, 'watch');
    expect(model.every((e) => e.disabled && e.reason === 'watch')).toBe(true);
    expect(panelModel(TABLE, null).every((e) => e.disabled)).toBe(true);
  });

  it('leaves gravity_z out of a 2D world\'s panel, which lives in the plane z = 0', () => {
    const table = [...TABLE, { ...TABLE.find((p) => p.name === 'gravity_y'), name: 'gravity_z', label: 'Gravity (z) (m/s²)' }];
    expect(panelModel(table, 'control').map((e) => e.name)).toContain('gravity_z');
    const flat = panelModel(table, 'control', [], 2).map((e) => e.name);
    expect(flat).not.toContain('gravity_z');
    expect(flat).toContain('gravity_y');
  });

  it('rejects a parameter type it does not know', () => {
    expect(() => panelModel([{ name: 'x', type: 'vector', live: true }], 'control')).toThrow(/unknown type/);
  });
});

describe('readBySolver', () => {
  it('shows a parameter for the solvers that read it, and every parameter while the solver is unknown', () => {
    const table = [
      { ...TABLE[0], solvers: ['sph', 'pbf'], all_solvers: true },
      { ...TABLE[6], solvers: ['sph'], all_solvers: false },
      { name: 'solver_iterations', type: 'int', unit: 'iterations', min: 1, max: 100, default: 4, live: true, solvers: ['pbf'], all_solvers: false },
      TABLE[1], // a table without the solver fields: read by all
    ];
    const [timeStep, stiffness, iterations, substeps] = panelModel(table, 'control');
    expect([timeStep, stiffness, iterations, substeps].map((e) => readBySolver(e, 'pbf'))).toEqual([true, false, true, true]);
    expect([timeStep, stiffness, iterations, substeps].map((e) => readBySolver(e, 'sph'))).toEqual([true, true, false, true]);
    expect([timeStep, stiffness, iterations, substeps].map((e) => readBySolver(e, null))).toEqual([true, true, true, true]);
  });
});

describe('float steps', () => {
  it('finds the decimal unit of a value', () => {
    expect(decimalUnit(400)).toBe(100);
    expect(decimalUnit(-9.81)).toBeCloseTo(0.01, 15);
    expect(decimalUnit(0.0005)).toBeCloseTo(0.0001, 15);
    expect(decimalUnit(0)).toBe(Infinity);
  });

  it('keeps the minimum and the default on the slider grid', () => {
    const e = byName(panelModel(TABLE, 'control'));
    expect(e.gravity_y.step).toBeCloseTo(0.01, 15);
    expect(e.time_step.step).toBeCloseTo(1e-6, 18);
    expect(e.stiffness.step).toBe(1); // 100 would snap 400 to 401 (grid from min = 1)
    for (const entry of Object.values(e)) {
      if (entry.kind !== 'number' || entry.integer) continue;
      const onGrid = (x) => Math.abs((x - entry.min) / entry.step - Math.round((x - entry.min) / entry.step)) < 1e-6;
      expect(onGrid(entry.defaultValue), entry.name).toBe(true);
    }
    expect(floatStep({ min: 0, max: 1, default: 0.5 })).toBeCloseTo(1e-4, 15);
  });
});

describe('valueToSend', () => {
  const e = byName(panelModel(TABLE, 'control'));

  it('passes numbers in range (typed text or slider numbers), whole numbers for ints, checks enums', () => {
    expect(valueToSend(e.gravity_y, '-3.5')).toEqual({ value: -3.5 });
    expect(valueToSend(e.gravity_y, -3.5)).toEqual({ value: -3.5 });
    expect(valueToSend(e.substeps, '8')).toEqual({ value: 8 });
    expect(valueToSend(e.time_step, '5e-4')).toEqual({ value: 5e-4 });
    expect(valueToSend(e.equation_of_state, 'linear')).toEqual({ value: 'linear' });
    expect(valueToSend(e.clamp_negative_pressure, false)).toEqual({ value: false });
  });

  it('never clamps: out of range, too large, not a number or not whole is an error in words naming the field', () => {
    expect(valueToSend(e.gravity_y, '1e400').error).toBe('Gravity y: 1e400 is too large; enter a number from -100 to 100 m/s²');
    expect(valueToSend(e.gravity_y, 150).error).toBe('Gravity y: 150 is out of range; enter a number from -100 to 100 m/s²');
    expect(valueToSend(e.gravity_y, 'abc').error).toBe('Gravity y: “abc” is not a number; enter one from -100 to 100 m/s²');
    expect(valueToSend(e.gravity_y, '').error).toBe('Gravity y: enter a number from -100 to 100 m/s²');
    expect(valueToSend(e.substeps, '7.6').error).toBe('Substeps: enter a whole number from 1 to 1000 steps');
    expect(valueToSend(e.equation_of_state, 'ideal').error).toBe('Equation of state: choose one of tait, linear');
    expect(valueToSend(e.gravity_y, 'Infinity').error).toMatch(/not a number/);
  });
});

describe('restartValues', () => {
  const table = [
    { ...TABLE[0], solvers: ['sph', 'pbf'], all_solvers: true },
    { ...TABLE[4], solvers: ['sph', 'pbf'], all_solvers: true },
    { ...TABLE[6], solvers: ['sph'], all_solvers: false },
    { name: 'max_particles', type: 'int', unit: 'particles', min: 1, max: 1e7, default: 2e6, live: true, solvers: ['sph', 'pbf'], all_solvers: true },
  ];
  const model = panelModel(table, 'control');

  it('sends what differs from the defaults for the solver, build-time values included', () => {
    const shown = { time_step: 0.001, particle_spacing: 0.03, stiffness: 500, max_particles: 2e6 };
    expect(restartValues(model, shown, 'pbf')).toEqual({ time_step: 0.001, particle_spacing: 0.03 });
    expect(restartValues(model, shown, 'sph')).toEqual({ time_step: 0.001, particle_spacing: 0.03, stiffness: 500 });
  });

  it('sends a value set back to its default by a person, which a scene might otherwise change', () => {
    const shown = { time_step: 0.0005, particle_spacing: 0.02, stiffness: 400, max_particles: 2e6 };
    expect(restartValues(model, shown, 'sph')).toEqual({});
    expect(restartValues(model, shown, 'sph', new Set(['stiffness']))).toEqual({ stiffness: 400 });
  });

  it('sends a derived value (the smoothing radius the world made of the ratio) only when touched', () => {
    const derived = panelModel([
      { ...TABLE[4], solvers: ['sph', 'pbf'], all_solvers: true },
      { name: 'smoothing_radius', type: 'float', unit: 'm', min: 0, max: 4, default: 0, live: false, derived: true,
        solvers: ['sph', 'pbf'], all_solvers: false },
    ], 'control');
    const shown = { particle_spacing: 0.01, smoothing_radius: 0.04 };
    expect(restartValues(derived, shown, 'sph')).toEqual({ particle_spacing: 0.01 });
    expect(restartValues(derived, shown, 'sph', new Set(['smoothing_radius']))).toEqual({ particle_spacing: 0.01, smoothing_radius: 0.04 });
  });

  it('keeps to the protocol\'s 64 values', () => {
    const many = Array.from({ length: 80 }, (_, i) => ({ ...TABLE[0], name: `p${i}` }));
    const shown = Object.fromEntries(many.map((p) => [p.name, 0.001]));
    expect(Object.keys(restartValues(panelModel(many, 'control'), shown, null))).toHaveLength(64);
  });

  it('gives each fluid its own entries of the fluid-scoped parameters, and none unscoped', () => {
    const table = [
      TABLE[0],
      { name: 'viscosity', type: 'float', unit: 'Pa s', min: 0, max: 100, default: 2, live: true, fluid_scope: true, solvers: ['sph'] },
      { name: 'rest_density', type: 'float', unit: 'kg/m^3', min: 1, max: 20000, default: 1000, live: false, fluid_scope: true },
    ];
    const fluids = [{ name: 'water', colour: '#2f7fd0', viscosity: 1, rest_density: 1000 }, { name: 'honey', colour: '#e0a030', viscosity: 40, rest_density: 1000 }];
    const model = panelModel(table, 'control', fluids);
    expect(model.map((e) => e.name)).toEqual(['time_step', 'water.viscosity', 'water.rest_density', 'honey.viscosity', 'honey.rest_density']);
    const honey = model.find((e) => e.name === 'honey.viscosity');
    expect(honey).toMatchObject({ fluid: 'honey', group: 'live', title: 'Viscosity of honey', kind: 'number', min: 0, max: 100, solvers: ['sph'] });
    expect(model.find((e) => e.name === 'water.rest_density').group).toBe('init');
    expect(valueToSend(honey, '200').error).toMatch(/Viscosity of honey/);
    expect(panelModel(table, 'control').map((e) => e.name)).toEqual(['time_step']); // no state yet: no fluids
    expect(fluidValues(fluids)).toEqual({ 'water.viscosity': 1, 'water.rest_density': 1000, 'honey.viscosity': 40, 'honey.rest_density': 1000 });
    // a restart keeps a scene's per-fluid values (they differ from the table's default)
    expect(restartValues(model, fluidValues(fluids), 'sph')).toEqual({ 'water.viscosity': 1, 'honey.viscosity': 40 });
  });
});

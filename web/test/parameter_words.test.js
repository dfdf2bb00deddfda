// The blow-up banner's words: parameter names in the server's texts become panel labels; the suggested values and the fix button's text.
import { describe, it, expect } from 'vitest';
import { describeValue, labelWords } from '../src/ui/parameter_words.js';
import { fixText, rewindNote, suggestedValues } from '../src/ui/unstable_banner.js';

const TABLE = [
  { name: 'time_step', label: 'Time step', type: 'float', unit: 's' },
  { name: 'speed_of_sound', label: 'Speed of sound', type: 'float', unit: 'm/s' },
  { name: 'smoothing_radius', label: 'Smoothing radius', type: 'float', unit: 'm' },
  { name: 'cfl_number', label: 'CFL limit', type: 'float', unit: '1' },
  { name: 'adaptive_time_step', label: 'Adaptive time step', type: 'bool', unit: '' },
  { name: 'step', type: 'int', unit: 'steps' }, // no label: its name in words; a name inside others
];

describe('labelWords', () => {
  const words = labelWords(TABLE);

  it('replaces every parameter name standing as a word with its label', () => {
    expect(words('time_step 0.02 s is too large for speed_of_sound 20 m/s and smoothing_radius 0.04 m; lower cfl_number'))
      .toBe('Time step 0.02 s is too large for Speed of sound 20 m/s and Smoothing radius 0.04 m; lower CFL limit');
  });

  it('leaves names inside longer words alone and takes the longest name', () => {
    expect(words('time_steps and my_time_step stay; step becomes a label')).toBe('time_steps and my_time_step stay; Step becomes a label');
    expect(words('use adaptive_time_step')).toBe('use Adaptive time step');
  });

  it('gives the text back without a table, and turns null into nothing', () => {
    expect(labelWords([])('time_step')).toBe('time_step');
    expect(words(null)).toBe('');
  });
});

describe('suggested values', () => {
  it('reads only a non-empty object', () => {
    expect(suggestedValues({ suggested: { time_step: 0.0004 } })).toEqual({ time_step: 0.0004 });
    for (const bad of [undefined, null, {}, [], 'x']) expect(suggestedValues({ suggested: bad })).toBeNull();
    expect(suggestedValues(null)).toBeNull();
  });

  it('describes each value with its label and unit, booleans as on/off', () => {
    expect(describeValue(TABLE[0], 'time_step', 0.0004)).toBe('Time step 0.0004 s');
    expect(describeValue(TABLE[4], 'adaptive_time_step', true)).toBe('Adaptive time step on');
    expect(describeValue(TABLE[3], 'cfl_number', 0.3)).toBe('CFL limit 0.3');
    expect(describeValue(undefined, 'mystery', 2)).toBe('mystery 2');
  });

  it('names the values and what follows on the fix button', () => {
    expect(fixText({ time_step: 0.0004, adaptive_time_step: true }, TABLE, true))
      .toBe('Apply the suggested values (Time step 0.0004 s and Adaptive time step on) and rewind');
    expect(fixText({ time_step: 0.0004 }, TABLE, false)).toBe('Apply the suggested values (Time step 0.0004 s) and restart');
  });
});

describe('rewindNote', () => {
  it('names the objects and walls a rewind took back', () => {
    expect(rewindNote({ time: 2, objects: { kept: false, removed: [3, 5], restored: [2], walls: true } }))
      .toBe('Rewound to t = 2.00 s: objects 3 and 5 added since went; object 2 removed since came back; the walls’ temperatures went back.');
    expect(rewindNote({ time: 1, objects: { kept: false, removed: [7], restored: [], walls: false } }))
      .toBe('Rewound to t = 1.00 s: object 7 added since went.');
  });

  it('says nothing when the rewind kept every object and wall', () => {
    expect(rewindNote({ time: 1, objects: { kept: true } })).toBeNull();
    expect(rewindNote({ time: 1, objects: { kept: false, removed: [], restored: [], walls: false } })).toBeNull();
    expect(rewindNote({ time: 1 })).toBeNull();
    expect(rewindNote(undefined)).toBeNull();
  });
});

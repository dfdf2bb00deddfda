// The JSON scanner that finds where a scene file breaks: valid texts pass, each kind of fault is found where it is, as the engine refuses it.
import { describe, it, expect } from 'vitest';
import { jsonErrorOffset, jsonSyntaxError, lineColumn } from '../src/util/json_syntax.js';

const VALID = ['{}', '[]', ' {"a": [1, -2.5e3, true, false, null, "x\\n\\u00e9"]} ', '0', '"s"', '{"a":{"b":[[]]}}'];
const BROKEN = [
  ['{"a": 1,}', 8], ['[1 2]', 3], ['{"a" 1}', 5], ['{a: 1}', 1], ['[01]', 2], ['[1.]', 3], ['[-]', 2], ['[1e]', 3],
  ['["a\nb"]', 3], ['["\\x"]', 3], ['["\\u12g4"]', 6], ['[tru]', 4], ['{"a": 1} x', 9], ['{"a": [1, 2', 11], ['', 0], ["{'a': 1}", 1],
];

describe('jsonErrorOffset', () => {
  it('passes valid JSON', () => {
    for (const text of VALID) expect([text, jsonErrorOffset(text)]).toEqual([text, -1]);
  });

  it('finds where each broken text breaks, and the engine agrees that it is broken', () => {
    for (const [text, offset] of BROKEN) {
      expect([text, jsonErrorOffset(text)]).toEqual([text, offset]);
      expect(() => JSON.parse(text)).toThrow();
    }
  });
});

describe('jsonSyntaxError', () => {
  it('words it as the server\'s scene parser does, or null for valid JSON', () => {
    expect(jsonSyntaxError('{"a": 1}')).toBeNull();
    expect(jsonSyntaxError('{\n  "a": 1,\n}')).toBe('line 3, column 1: expected valid JSON, found "}"');
    expect(jsonSyntaxError('{"a": ')).toBe('line 1, column 7: expected more JSON, found the end of the text');
    expect(lineColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
  });
});

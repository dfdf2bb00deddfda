// Scene files from the browser: JSON errors with line and column, size limit, the server's key path in its error.
import { describe, it, expect } from 'vitest';
import { MAX_SCENE_BYTES, parseSceneText, sceneErrorText } from '../src/ui/scene_upload.js';

describe('parseSceneText', () => {
  it('gives the document of a valid file', () => {
    expect(parseSceneText('a.json', '{"name": "a", "blocks": []}')).toEqual({ scene: { name: 'a', blocks: [] } });
  });
  it('says where the JSON is broken, with line and column as the command line does', () => {
    expect(parseSceneText('bad.json', '{\n  "name": "a",\n  "blocks": [1,]\n}').error)
      .toBe('bad.json: line 3, column 16: expected valid JSON, found "]"');
    expect(parseSceneText('bad.json', '{\n  "name": "a"\n  "blocks": []\n}').error) // a comma missing on line 2
      .toBe('bad.json: line 3, column 3: expected valid JSON, found ""blocks": []"');
    expect(parseSceneText('cut.json', '{\n  "name": "a",\n').error)
      .toBe('cut.json: line 3, column 1: expected more JSON, found the end of the text');
  });
  it('refuses what is not one object, and files too big to send', () => {
    expect(parseSceneText('x.json', '[1, 2]').error).toBe('x.json: a scene file holds one JSON object');
    expect(parseSceneText('x.json', 'null').error).toBe('x.json: a scene file holds one JSON object');
    expect(parseSceneText('big.json', ' '.repeat(MAX_SCENE_BYTES + 1)).error).toMatch(/too big/);
  });
});

describe('sceneErrorText', () => {
  it('names the key path inside the file', () => {
    expect(sceneErrorText('s.json', { field: 'scene.blocks[0].min', message: 'expected a vector of 3 numbers' }))
      .toBe('s.json: blocks[0].min: expected a vector of 3 numbers');
    expect(sceneErrorText('s.json', { field: 'scene.domain', message: 'domain: min must be below max' })).toBe('s.json: domain: min must be below max');
    expect(sceneErrorText('s.json', { field: 'scene.fluid[0].max', message: 'scene.fluid[0].max: expected an array of 3 numbers' }))
      .toBe('s.json: fluid[0].max: expected an array of 3 numbers');
    expect(sceneErrorText('s.json', { field: null, message: 'no room' })).toBe('s.json: no room');
  });
});

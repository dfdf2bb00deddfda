// Reads a scene file chosen in the browser: parsed as JSON here (errors give line and column as the command line's do), checked by the server like any scene.
import { jsonSyntaxError } from '../util/json_syntax.js';

export const MAX_SCENE_BYTES = 60000; // the message with it must stay under the protocol's 64 KiB

/** {scene} (the document) or {error} for a file's text. */
export function parseSceneText(name, text) {
  if (text.length > MAX_SCENE_BYTES) return { error: `${name}: ${text.length} bytes is too big for a scene upload (at most ${MAX_SCENE_BYTES})` };
  const broken = jsonSyntaxError(text); // the scanner's place, in the words `fluidcast run` uses
  if (broken) return { error: `${name}: ${broken}` };
  let scene;
  try {
    scene = JSON.parse(text);
  } catch (e) { // the scanner passed what the engine refuses (it should not happen): the engine's words
    return { error: `${name}: not valid JSON (${e.message})` };
  }
  if (scene === null || typeof scene !== 'object' || Array.isArray(scene)) return { error: `${name}: a scene file holds one JSON object` };
  return { scene };
}

/** The server's error about an uploaded scene, with the key path as the file's: "blocks[0].min: …". */
export function sceneErrorText(name, error) {
  const field = error.field && error.field.startsWith('scene.') ? error.field.slice('scene.'.length) : null;
  let message = String(error.message || '');
  if (error.field && message.startsWith(`${error.field}: `)) message = message.slice(error.field.length + 2);
  else if (field && message.startsWith(`${field}: `)) message = message.slice(field.length + 2);
  return field ? `${name}: ${field}: ${message}` : `${name}: ${message}`;
}

/** A hidden file input opened by pick(); onScene(name, scene) or onError(message). */
export class SceneUpload {
  constructor(container, { onScene, onError }) {
    this.input = document.createElement('input');
    Object.assign(this.input, { type: 'file', accept: '.json,application/json', hidden: true });
    this.input.dataset.testid = 'scene-file';
    this.input.addEventListener('change', async () => {
      const file = this.input.files?.[0];
      this.input.value = '';
      if (!file) return;
      if (file.size > MAX_SCENE_BYTES) {
        onError(`${file.name}: ${file.size} bytes is too big for a scene upload (at most ${MAX_SCENE_BYTES})`);
        return;
      }
      const parsed = parseSceneText(file.name, await file.text());
      if (parsed.error) onError(parsed.error);
      else onScene(file.name, parsed.scene);
    });
    container.append(this.input);
  }

  pick() {
    this.input.click();
  }
}

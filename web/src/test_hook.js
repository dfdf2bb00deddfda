// window.fluidcast: the read-only view of the viewer that the e2e tests and the benchmark use (web/README.md).
import { dequantize } from '../../protocol/js/frame_decoder.js';

/** app: the App of app.js (session, viewer, newest frame, timings, bytes meter). */
export function installTestHook(app, target = window) {
  target.fluidcast = {
    status() {
      const { session } = app;
      const state = session.state;
      const frame = app.newestFrame;
      return {
        connection: session.connection,
        role: session.role,
        world: session.world,
        particles: frame ? frame.count : 0,
        frames: app.receiver.frames,
        decoding: app.receiver.decoding.kind,
        uploadsDeferred: app.uploadsDeferred,
        sequence: frame ? frame.sequence : null,
        frameEpoch: frame ? frame.epoch : null,
        epoch: state ? state.epoch : null,
        time: frame ? frame.time : null,
        paused: state ? state.paused : false,
        solver: state ? state.solver : null,
        scene: state ? state.scene : null,
        dimensions: state ? state.dimensions ?? 3 : null,
        backend: state ? state.backend ?? null : null,
        device: state ? state.device ?? null : null,
        camera: app.viewer.camera.type, // 'PerspectiveCamera', or 'OrthographicCamera' for a 2D world
        unstable: state ? state.unstable ?? null : null,
        waiting: state ? state.waiting === true : false,
        cameraBroadcast: state ? state.camera_broadcast === true : false,
        worlds: session.worlds.map((w) => ({ ...w })),
        tokenRefused: session.tokenRefused,
        renderFps: app.viewer.renderFps(),
        bytesPerSecond: app.bytesPerSecond(),
        lastError: session.lastError ? { ...session.lastError } : null,
        parameters: session.welcome ? session.welcome.parameters.map((p) => p.name) : [],
        values: state ? { ...state.values } : {},
        fluids: state && Array.isArray(state.fluids) ? structuredClone(state.fluids) : [],
        emitters: state ? structuredClone(state.emitters) : [],
        colliders: state ? structuredClone(state.colliders) : [],
        walls: state ? structuredClone(state.walls ?? {}) : {},
        domain: state ? structuredClone(state.domain) : null,
        view: state ? structuredClone(state.view ?? null) : null,
        name: state ? state.name ?? null : null,
        // "See inside" as this viewer draws it: hidden fluid indices, opacities, cutaway, size
        see: { hidden: [...app.see.hidden].sort(), opacity: [...app.see.opacity], cut: app.see.cut ? { ...app.see.cut } : null, size: app.see.size },
        insets: { ...app.viewer.insets },
      };
    },
    /** The first n particles of the newest frame, in id order, in metres. */
    positions(n = Infinity) {
      const frame = app.newestFrame;
      if (!frame) return [];
      const count = Math.min(frame.count, n);
      const result = new Array(count);
      for (let i = 0; i < count; i++) result[i] = dequantize(frame, i);
      return result;
    },
    /** How many particles of each fluid the newest frame has (its fluid section: colour by fluid); null without one. */
    fluidCounts() {
      const section = app.newestFrame?.attributes?.fluid;
      if (!section) return null;
      const counts = [];
      for (const f of section.values.subarray(0, app.newestFrame.count)) counts[f] = (counts[f] ?? 0) + 1;
      return Array.from(counts, (c) => c ?? 0);
    },
    /** The mean of attribute `name` (decoded from its byte and range) over the newest frame's particles inside the box {min, max} (m); {mean, count}, or null when the frame has no such section. */
    meanAttribute(name, box) {
      const frame = app.newestFrame;
      const section = frame?.attributes?.[name];
      if (!section) return null;
      let sum = 0;
      let count = 0;
      for (let i = 0; i < frame.count; i++) {
        const p = dequantize(frame, i);
        if (p.some((x, k) => x < box.min[k] || x > box.max[k])) continue;
        sum += section.lo + (section.values[i] / 255) * (section.hi - section.lo);
        count++;
      }
      return { mean: count ? sum / count : null, count };
    },
    /** The camera's position and orbit target, in metres. */
    camera() {
      return app.viewer.cameraPose();
    },
    frameTimings() {
      return app.timings.list();
    },
    /** Per frame, the decoding's own time in ms (in the decode worker, off the main thread). */
    decodeTimings() {
      return app.timings.decodeList();
    },
    send(message) {
      return app.session.send(message);
    },
    /** The extras' state: colour scale, pick, plot samples, last screenshot, orbit target (extras.js). */
    extras() {
      return app.extras.testState();
    },
    /** Where a point (m) is drawn, in client pixels [x, y]. */
    project(position) {
      return app.extras.project(position);
    },
  };
  return target.fluidcast;
}

// Real-time factor seen by the viewer: simulated seconds per wall second over the last frames (when the server does not say).

export class RealtimeFactor {
  constructor(windowMs = 2000) {
    this.windowMs = windowMs;
    this.samples = []; // [wall ms, simulated s]
  }

  /** A frame's simulated time at wall time now (ms); a time going back (reset, rewind) starts over. */
  add(now, time) {
    const last = this.samples[this.samples.length - 1];
    if (last && time < last[1]) this.samples = [];
    this.samples.push([now, time]);
    while (this.samples.length > 2 && now - this.samples[0][0] > this.windowMs) this.samples.shift();
  }

  /** Simulated s per wall s up to now (frames stop while paused: 0 then), null without two frames. */
  value(now) {
    if (this.samples.length < 2) return null;
    const [t0, s0] = this.samples[0];
    const [, s1] = this.samples[this.samples.length - 1];
    const wall = (now - t0) / 1000;
    return wall > 0 ? (s1 - s0) / wall : null;
  }
}

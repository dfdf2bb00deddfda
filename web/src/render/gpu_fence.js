// GPU back-pressure: a fence after each rendered frame; while it is pending nothing new is queued behind it (a slow GPU never blocks the page).
const GIVE_UP_MS = 5000; // a fence that never signals (a lost context) must not stop rendering for good

export class GpuFence {
  constructor(gl, now = () => performance.now()) {
    this.gl = gl;
    this.now = now;
    this.sync = null;
    this.since = 0;
    this.lastDuration = 0; // ms from mark() until busy() saw the fence signalled (rAF resolution)
  }

  /** True while the GPU has not finished the last marked frame. Never blocks. */
  busy() {
    if (!this.sync) return false;
    const gl = this.gl;
    const elapsed = this.now() - this.since;
    if (gl.getSyncParameter(this.sync, gl.SYNC_STATUS) === gl.SIGNALED || elapsed > GIVE_UP_MS) {
      this.lastDuration = elapsed;
      gl.deleteSync(this.sync);
      this.sync = null;
      return false;
    }
    return true;
  }

  /** Marks the end of the commands queued so far (call after rendering a frame). */
  mark() {
    const gl = this.gl;
    if (this.sync) gl.deleteSync(this.sync);
    this.sync = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
    this.since = this.now();
  }
}

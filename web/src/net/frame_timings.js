// Main-thread time per received frame (decode + upload): kept for window.fluidcast.frameTimings() and as performance measures.

export const MEASURE_NAME = 'fluidcast-frame';

export class FrameTimings {
  constructor({ keep = 10000, performance: perf = globalThis.performance } = {}) {
    this.keep = keep;
    this.perf = perf;
    this.values = [];
    this.recorded = 0;
  }

  /** Records one frame that took end - start ms (performance.now() times). */
  record(start, end) {
    this.values.push(end - start);
    if (this.values.length > this.keep) this.values.splice(0, this.values.length - this.keep);
    this.recorded += 1;
    if (this.perf && typeof this.perf.measure === 'function') {
      // The performance timeline keeps every measure; bound it like the array.
      if (this.recorded % this.keep === 0) this.perf.clearMeasures(MEASURE_NAME);
      this.perf.measure(MEASURE_NAME, { start, end });
    }
  }

  list() {
    return [...this.values];
  }
}

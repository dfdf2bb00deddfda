// Time per received frame: the main thread's (hand-over or decode, + upload) for window.fluidcast.frameTimings() and as
// performance measures, and the decoding's own (in the worker) for window.fluidcast.decodeTimings().

export const MEASURE_NAME = 'fluidcast-frame';

export class FrameTimings {
  constructor({ keep = 10000, performance: perf = globalThis.performance } = {}) {
    this.keep = keep;
    this.perf = perf;
    this.values = [];
    this.decodeValues = [];
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

  /** Records the decoding's own time for one frame (in the decode worker when there is one). */
  recordDecode(ms) {
    this.decodeValues.push(ms);
    if (this.decodeValues.length > this.keep) this.decodeValues.splice(0, this.decodeValues.length - this.keep);
  }

  list() {
    return [...this.values];
  }

  decodeList() {
    return [...this.decodeValues];
  }
}

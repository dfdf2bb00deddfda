// A fixed-capacity ring of timed samples (time + named values) for the live plots: push, wrap, and the columns of a time window.

/**
 * Holds the newest `capacity` samples of the series `names`. push(t, values) stores values[name]
 * for each name (a missing or non-finite value is stored as null: a gap in the plot). Times are
 * expected to grow; a sample older than the newest is dropped.
 */
export class TimeRing {
  constructor(capacity, names) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity: a positive integer');
    if (!Array.isArray(names) || names.length === 0) throw new RangeError('names: at least one series');
    this.capacity = capacity;
    this.names = [...names];
    this.times = new Float64Array(capacity);
    this.values = this.names.map(() => new Array(capacity).fill(null));
    this.start = 0; // index of the oldest sample
    this.length = 0;
  }

  clear() {
    this.start = 0;
    this.length = 0;
  }

  newestTime() {
    return this.length === 0 ? null : this.times[(this.start + this.length - 1) % this.capacity];
  }

  /** Adds a sample; returns false (and stores nothing) when t is not finite or older than the newest. */
  push(t, values) {
    if (!Number.isFinite(t)) return false;
    const newest = this.newestTime();
    if (newest !== null && t < newest) return false;
    let index;
    if (this.length < this.capacity) {
      index = (this.start + this.length) % this.capacity;
      this.length += 1;
    } else {
      index = this.start; // overwrite the oldest
      this.start = (this.start + 1) % this.capacity;
    }
    this.times[index] = t;
    this.names.forEach((name, k) => {
      const v = values ? values[name] : null;
      this.values[k][index] = typeof v === 'number' && Number.isFinite(v) ? v : null;
    });
    return true;
  }

  /**
   * The samples with time in [now - seconds, now], oldest first, as uPlot's columns:
   * [times, series of names[0], series of names[1], ...] (plain arrays).
   */
  window(now, seconds) {
    const from = now - seconds;
    const columns = [[], ...this.names.map(() => [])];
    for (let i = 0; i < this.length; i++) {
      const index = (this.start + i) % this.capacity;
      const t = this.times[index];
      if (t < from || t > now) continue;
      columns[0].push(t);
      for (let k = 0; k < this.names.length; k++) columns[k + 1].push(this.values[k][index]);
    }
    return columns;
  }
}

// Reconnect delays: exponential backoff from 0.5 s to 10 s with jitter, reset after a good connection.

export const BACKOFF_DEFAULTS = Object.freeze({ initialMs: 500, maxMs: 10000, factor: 2, jitter: 0.25 });

/**
 * delay() gives the wait before the next attempt and counts it; reset() after a successful
 * session (a welcome) starts again from initialMs. jitter is the relative spread: the delay is
 * base * (1 - jitter + 2 jitter r) for a random r in [0, 1), then capped at maxMs.
 */
export class Backoff {
  constructor(options = {}, random = Math.random) {
    this.options = { ...BACKOFF_DEFAULTS, ...options };
    this.random = random;
    this.attempt = 0;
  }

  /** The un-jittered delay of attempt n (0-based). */
  baseDelay(n) {
    const { initialMs, maxMs, factor } = this.options;
    return Math.min(maxMs, initialMs * factor ** n);
  }

  delay() {
    const { jitter, maxMs } = this.options;
    const base = this.baseDelay(this.attempt);
    this.attempt += 1;
    const spread = 1 - jitter + 2 * jitter * this.random();
    return Math.round(Math.min(maxMs, base * spread));
  }

  reset() {
    this.attempt = 0;
  }
}

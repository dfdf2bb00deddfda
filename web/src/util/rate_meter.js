// Sliding-window rate: events or bytes per second over the last windowMs (render fps, received bytes/s).

export class RateMeter {
  constructor(windowMs = 1000) {
    this.windowMs = windowMs;
    this.times = [];
    this.amounts = [];
    this.head = 0;
    this.total = 0;
  }

  add(now, amount = 1) {
    this.times.push(now);
    this.amounts.push(amount);
    this.total += amount;
    this.expire(now);
  }

  /** Amount per second over the window ending at now. */
  rate(now) {
    this.expire(now);
    return (this.total * 1000) / this.windowMs;
  }

  expire(now) {
    const limit = now - this.windowMs;
    while (this.head < this.times.length && this.times[this.head] <= limit) {
      this.total -= this.amounts[this.head];
      this.head += 1;
    }
    if (this.head > 1024 && this.head * 2 > this.times.length) {
      this.times = this.times.slice(this.head);
      this.amounts = this.amounts.slice(this.head);
      this.head = 0;
    }
    if (this.head === this.times.length) this.total = 0; // no float drift when empty
  }
}

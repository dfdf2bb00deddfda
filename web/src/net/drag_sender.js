// Throttles drag messages (collider_move, emitter_update) to a rate and estimates the drag velocity.

const TIME_EPSILON_MS = 1e-6; // 2 x (1000 / 60) ms must count as 1000 / 30 ms

/**
 * move(position, now) records the newest position and returns it with a velocity when a message
 * may be sent now (at most one per intervalMs), else null and keeps it pending; pendingDue(now)
 * says in how many ms flush(now) will send the pending one; end(now) returns the last position
 * with velocity 0 (the drag stopped). Velocity = displacement since the last sent message / time.
 */
export class DragSender {
  constructor(intervalMs = 1000 / 30) {
    this.intervalMs = intervalMs;
    this.lastSent = null; // {position, time}
    this.pending = null;
  }

  start(position, now) {
    this.lastSent = { position: [...position], time: now };
    this.pending = null;
  }

  move(position, now) {
    this.pending = [...position];
    return this.flush(now);
  }

  pendingDue(now) {
    if (!this.pending) return null;
    return Math.max(0, this.lastSent.time + this.intervalMs - now);
  }

  flush(now) {
    if (!this.pending || !this.lastSent) return null;
    const dt = now - this.lastSent.time;
    if (dt + TIME_EPSILON_MS < this.intervalMs) return null;
    const position = this.pending;
    const velocity = position.map((x, i) => (x - this.lastSent.position[i]) / (dt / 1000));
    this.lastSent = { position, time: now };
    this.pending = null;
    return { position, velocity };
  }

  end(now) {
    const position = this.pending || (this.lastSent && this.lastSent.position);
    this.pending = null;
    if (!position) return null;
    this.lastSent = { position, time: now };
    return { position, velocity: [0, 0, 0] };
  }
}

// Binary messages of the subscribed world into decoded frames: skips other worlds and magics, reports need_key and corrupt frames.
import { InlineDecoding } from './decoding.js';

const MAGIC_FCPF = 0x46504346; // 'FCPF' read as a little-endian u32

/**
 * receive(buffer) hands a frame of the expected world to the decoding (decoding.js: a worker in
 * the browser) and, when it comes back decoded, calls onFrame(frame) (which uploads it). The
 * main thread's time for a frame, handing it over + onFrame (+ the decoding itself when inline),
 * goes to timings, and the decoding's own time to timings.recordDecode. A frame that cannot be
 * decoded leaves the last good one on screen: onNeedKey(error) for a chain break, onCorrupt(error)
 * for a bad frame. Frames decoded for a world or stream left since (expect / reset) are dropped.
 */
export class FrameReceiver {
  constructor({ onFrame, onNeedKey, onCorrupt, timings = null, decoding = new InlineDecoding(), now = () => performance.now() }) {
    Object.assign(this, { onFrame, onNeedKey, onCorrupt, timings, now });
    this.world = null;
    this.frames = 0;
    this.generation = 0;
    this.pending = []; // per frame handed over, in order: {start, postMs, outcome}
    this.use(decoding);
  }

  use(decoding) {
    this.decoding = decoding;
    decoding.onReply = (reply) => this.handleReply(reply);
    decoding.onBroken = (reason) => {
      // Decode on this thread from now on, starting again from a key frame.
      this.pending = [];
      this.use(new InlineDecoding());
      this.reset();
      this.onNeedKey({ code: 'need_key', message: reason });
    };
  }

  /** Follow `world` from its next key frame on. */
  expect(world) {
    this.world = world;
    this.reset();
  }

  reset() {
    this.generation += 1;
    this.decoding.post({ type: 'reset', generation: this.generation });
  }

  /** Hands back the buffers of a frame no longer shown (worker decoding reuses them). */
  recycle(frame) {
    if (frame) this.decoding.recycle(frame);
  }

  /** True when the frame was decoded (inline) or handed to the worker; false when skipped or failed. */
  receive(buffer) {
    if (buffer.byteLength < 12) return false;
    const view = new DataView(buffer);
    if (view.getUint32(0, true) !== MAGIC_FCPF) return false; // FCMF and unknown magics are ignored
    if (this.world === null || view.getUint32(8, true) !== this.world) return false;
    const entry = { start: this.now(), postMs: null, outcome: null };
    this.pending.push(entry);
    this.decoding.post({ type: 'frame', buffer, generation: this.generation }, [buffer]);
    if (entry.outcome !== null) return entry.outcome; // answered at once: inline decoding
    entry.postMs = this.now() - entry.start;
    return true;
  }

  handleReply(reply) {
    const entry = this.pending.shift();
    if (!entry) return;
    // Inline, the time runs from receive(); from a worker, it is the hand-over plus this handler.
    const start = entry.postMs === null ? entry.start : this.now() - entry.postMs;
    entry.outcome = false;
    if (reply.generation !== this.generation) {
      if (reply.type === 'frame') this.recycle(reply.frame);
      return;
    }
    if (reply.type === 'failed') {
      if (reply.error.code === 'need_key') this.onNeedKey(reply.error);
      else this.onCorrupt(reply.error);
      return;
    }
    this.frames += 1;
    this.onFrame(reply.frame);
    entry.outcome = true;
    if (this.timings) {
      this.timings.record(start, this.now());
      this.timings.recordDecode(reply.decodeMs);
    }
  }
}

// Binary messages of the subscribed world into decoded frames: skips other worlds and magics, reports need_key and corrupt frames.
import { FrameDecoder } from '../../../protocol/js/frame_decoder.js';

const MAGIC_FCPF = 0x46504346; // 'FCPF' read as a little-endian u32

/**
 * receive(buffer) decodes a frame of the expected world and calls onFrame(frame) (which uploads
 * it); the time of decode + onFrame goes to timings. A frame that cannot be decoded leaves the
 * last good one on screen: onNeedKey(error) for a chain break, onCorrupt(error) for a bad frame.
 */
export class FrameReceiver {
  constructor({ onFrame, onNeedKey, onCorrupt, timings = null, decoder = new FrameDecoder(), now = () => performance.now() }) {
    Object.assign(this, { onFrame, onNeedKey, onCorrupt, timings, decoder, now });
    this.world = null;
    this.frames = 0;
  }

  /** Follow `world` from its next key frame on. */
  expect(world) {
    this.world = world;
    this.decoder.reset();
  }

  reset() {
    this.decoder.reset();
  }

  receive(buffer) {
    if (buffer.byteLength < 12) return false;
    const view = new DataView(buffer);
    if (view.getUint32(0, true) !== MAGIC_FCPF) return false; // FCMF and unknown magics are ignored
    if (this.world === null || view.getUint32(8, true) !== this.world) return false;
    const start = this.now();
    let frame;
    try {
      frame = this.decoder.decode(buffer);
    } catch (error) {
      if (error && error.code === 'need_key') this.onNeedKey(error);
      else this.onCorrupt(error);
      return false;
    }
    this.frames += 1;
    this.onFrame(frame);
    if (this.timings) this.timings.record(start, this.now());
    return true;
  }
}

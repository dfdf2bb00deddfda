// The decoder side of the viewer's frame pipeline, the same in the decode worker and on the main thread.
import { FrameDecoder } from '../../../protocol/js/frame_decoder.js';
import { BufferPool, packFrame } from './frame_transfer.js';
import { addByteRanges } from '../util/byte_range.js';

/**
 * handle(message) takes {type: 'frame', buffer, generation} or {type: 'reset', generation} or
 * {type: 'recycle', buffers} and returns the reply ({type: 'frame', generation, frame, decodeMs} or
 * {type: 'failed', generation, error: {code, message}}) with the buffers to transfer, or null.
 * A reset forgets the held state: the next frame must be a key frame.
 */
export class DecodeService {
  constructor({ decoder = new FrameDecoder(), now = () => performance.now(), pack = true } = {}) {
    Object.assign(this, { decoder, now, pack });
    this.pool = new BufferPool();
  }

  handle(message) {
    switch (message.type) {
      case 'reset':
        this.decoder.reset();
        return null;
      case 'recycle':
        this.pool.give(message.buffers);
        return null;
      case 'frame': return this.decode(message);
      default: return null;
    }
  }

  decode({ buffer, generation }) {
    const start = this.now();
    try {
      const decoded = addByteRanges(this.decoder.decode(buffer)); // the colour scale's auto range, off the main thread
      const { frame, transfer } = this.pack ? packFrame(decoded, this.pool) : { frame: decoded, transfer: [] };
      return { reply: { type: 'frame', generation, frame, decodeMs: this.now() - start }, transfer };
    } catch (error) {
      const code = error && error.code ? error.code : 'corrupt';
      return { reply: { type: 'failed', generation, error: { code, message: String(error && error.message ? error.message : error) } }, transfer: [] };
    }
  }
}

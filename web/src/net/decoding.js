// Where frames are decoded: in a worker (the default in the browser) or inline on the calling thread (tests, fallback).
import { DecodeService } from './decode_service.js';
import { frameBuffers } from './frame_transfer.js';

/**
 * Both kinds take post(message, transfer) with DecodeService's messages and answer through
 * onReply(reply); replies come in the order of the posts. recycle(frame) hands a shown frame's
 * buffers back for reuse. onBroken(reason) is called if decoding can no longer happen there.
 */
export class InlineDecoding {
  constructor(options = {}) {
    this.service = new DecodeService({ ...options, pack: false }); // frames are views of the decoder's buffers
    this.onReply = null;
    this.onBroken = null;
    this.kind = 'inline';
  }

  post(message) {
    const result = this.service.handle(message);
    if (result && this.onReply) this.onReply(result.reply);
  }

  recycle() {}
}

export class WorkerDecoding {
  constructor(worker) {
    this.worker = worker;
    this.onReply = null;
    this.onBroken = null;
    this.kind = 'worker';
    worker.onmessage = (event) => this.onReply?.(event.data);
    const broken = (event) => {
      worker.terminate();
      this.onBroken?.(`decode worker failed: ${event && event.message ? event.message : 'unknown error'}`);
    };
    worker.onerror = broken;
    worker.onmessageerror = broken;
  }

  post(message, transfer = []) {
    this.worker.postMessage(message, transfer);
  }

  recycle(frame) {
    const buffers = frameBuffers(frame);
    if (buffers.length) this.worker.postMessage({ type: 'recycle', buffers }, buffers);
  }
}

/** A worker when the browser can start one, else inline decoding. */
export function createDecoding() {
  if (typeof Worker === 'undefined') return new InlineDecoding();
  try {
    return new WorkerDecoding(new Worker(new URL('./decode_worker.js', import.meta.url), { type: 'module' }));
  } catch {
    return new InlineDecoding();
  }
}

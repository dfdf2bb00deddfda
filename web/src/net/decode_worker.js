// The decode worker: decodes the viewer's binary frames off the main thread (DecodeService) and posts them back.
import { DecodeService } from './decode_service.js';

const service = new DecodeService();

self.onmessage = (event) => {
  const result = service.handle(event.data);
  if (result) self.postMessage(result.reply, result.transfer);
};

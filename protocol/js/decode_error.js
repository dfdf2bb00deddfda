// DecodeError: the one error type the frame decoder throws ('need_key' or 'corrupt').

/** code 'need_key': a delta frame that does not apply to the held state (PROTOCOL.md 4.7).
 *  code 'corrupt': any other fault; the message says which. */
export class DecodeError extends Error {
  constructor(code, message) {
    super(`${code}: ${message}`);
    this.name = 'DecodeError';
    this.code = code;
  }
}

export function corrupt(message) {
  return new DecodeError('corrupt', message);
}

export function needKey(message) {
  return new DecodeError('need_key', message);
}

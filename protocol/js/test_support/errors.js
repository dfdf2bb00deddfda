// TEST SUPPORT ONLY: helpers to catch and inspect the error a call throws.
import { expect } from 'vitest';
import { DecodeError } from '../decode_error.js';

/** The error fn() throws; fails the test when it throws nothing. */
export function catchError(fn) {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error, none was thrown');
}

/** fn() throws a DecodeError with this code and a message matching `pattern`. */
export function expectDecodeError(fn, code, pattern = /./) {
  const error = catchError(fn);
  expect(error).toBeInstanceOf(DecodeError);
  expect(error.code).toBe(code);
  expect(error.message).toMatch(pattern);
  return error;
}

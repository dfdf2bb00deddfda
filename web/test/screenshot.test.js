// The screenshot's file name (world and local time) and the data: URL to Blob conversion.
import { describe, it, expect } from 'vitest';
import { dataUrlToBlob, screenshotName } from '../src/ui/screenshot.js';

describe('screenshotName', () => {
  it('is fluidcast-<world>-<YYYYMMDD-HHMMSS>.png in local time, zero-padded', () => {
    expect(screenshotName(3, new Date(2026, 0, 5, 7, 8, 9))).toBe('fluidcast-3-20260105-070809.png');
    expect(screenshotName(12, new Date(2026, 10, 24, 23, 59, 58))).toBe('fluidcast-12-20261124-235958.png');
  });

  it('names a view without a world "none"', () => {
    expect(screenshotName(null, new Date(2026, 0, 1, 0, 0, 0))).toBe('fluidcast-none-20260101-000000.png');
  });
});

describe('dataUrlToBlob', () => {
  it('decodes base64 bytes and keeps the type', async () => {
    const blob = dataUrlToBlob('data:image/png;base64,iVBORw0=');
    expect(blob.type).toBe('image/png');
    expect([...new Uint8Array(await blob.arrayBuffer())]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d]);
  });

  it('refuses anything else', () => {
    expect(() => dataUrlToBlob('data:image/png,plain')).toThrow(/base64/);
    expect(() => dataUrlToBlob('http://x/y.png')).toThrow(/base64/);
  });
});

// The screenshot's file name (world and local time) and the data: URL to Blob conversion.
import { describe, it, expect } from 'vitest';
import { dataUrlToBlob, drawCaption, screenshotName, timeText } from '../src/ui/screenshot.js';

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

/** A 2D context that records the texts and rectangles drawn. */
function recorder() {
  const calls = [];
  return {
    calls,
    font: '', textAlign: 'left', textBaseline: 'alphabetic', fillStyle: '',
    measureText: (t) => ({ width: 7 * t.length }),
    fillText(t, x, y) { calls.push({ text: t, x, y, align: this.textAlign }); },
    fillRect(x, y, w, h) { calls.push({ rect: [x, y, w, h], style: this.fillStyle }); },
    createLinearGradient: () => ({ stops: [], addColorStop(t, c) { this.stops.push([t, c]); } }),
  };
}

describe('drawCaption', () => {
  it('writes the world, the time and the legend with its labels, inside the picture', () => {
    const ctx = recorder();
    const texts = drawCaption(ctx, 1400, 900, { title: 'lava_lamp', time: 12.345, legend: { name: 'temperature', min: '14.5 °C (287.7 K)', max: '70.0 °C (343.2 K)' } });
    expect(texts).toEqual(['lava_lamp', 't = 12.35 s', 'temperature', '14.5 °C (287.7 K)', '70.0 °C (343.2 K)']);
    for (const c of ctx.calls) {
      if (c.rect) {
        expect(c.rect[0]).toBeGreaterThanOrEqual(0);
        expect(c.rect[0] + c.rect[2]).toBeLessThanOrEqual(1400);
        expect(c.rect[1] + c.rect[3]).toBeLessThanOrEqual(900);
      }
    }
    expect(ctx.calls.find((c) => c.text === '70.0 °C (343.2 K)').align).toBe('right');
  });

  it('scales with the picture and draws the fluids as swatches', () => {
    const ctx = recorder();
    const texts = drawCaption(ctx, 2800, 1800, { time: 0, legend: { name: 'fluid', swatches: [{ name: 'water', colour: '#2f7fd0' }, { name: 'wax', colour: '#e04020' }] } }, 2);
    expect(texts).toEqual(['t = 0.00 s', 'fluid', 'water', 'wax']);
    expect(ctx.font).toBe('26px system-ui, sans-serif');
    expect(ctx.calls.some((c) => c.rect && c.style === '#e04020')).toBe(true);
  });

  it('leaves out what it does not have', () => {
    expect(drawCaption(recorder(), 100, 100, {})).toEqual([]);
    expect(timeText(null)).toBe('');
  });
});

// The room link's QR code: an SVG of the right size for the link, and an empty link refused.
import { describe, it, expect } from 'vitest';
import { qrSize, qrSvg } from '../src/ui/qr.js';

describe('qrSvg', () => {
  it('draws a room link as an SVG whose view box is the code plus the quiet zone', async () => {
    const link = 'http://192.168.1.20:8080/?world=1';
    const svg = await qrSvg(link);
    const size = qrSize(link);
    expect(size).toBe(29); // version 3 at error correction M
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain(`viewBox="0 0 ${size + 4} ${size + 4}"`);
    expect(svg).toContain('#000000');
  });

  it('gives a larger code for a longer link and refuses an empty one', async () => {
    expect(qrSize(`http://example.org/${'x'.repeat(100)}?world=1`)).toBeGreaterThan(qrSize('http://a/?world=1'));
    await expect(qrSvg('')).rejects.toThrow(/empty/);
  });
});

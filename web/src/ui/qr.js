// QR code of a link as an SVG string (the qrcode package), sized by its modules, dark on white with a quiet zone.
import QRCode from 'qrcode';

/** Medium error correction and a 2-module quiet zone: readable from a projector across a room. */
export const QR_OPTIONS = { type: 'svg', errorCorrectionLevel: 'M', margin: 2, color: { dark: '#000000', light: '#ffffff' } };

/** Resolves to the SVG markup of `text`'s QR code; rejects an empty text. */
export async function qrSvg(text) {
  if (typeof text !== 'string' || text.length === 0) throw new TypeError('qr: the link is empty');
  return QRCode.toString(text, QR_OPTIONS);
}

/** The number of modules per side of `text`'s code (21 for version 1, 4 more per version). */
export function qrSize(text) {
  return QRCode.create(text, { errorCorrectionLevel: QR_OPTIONS.errorCorrectionLevel }).modules.size;
}

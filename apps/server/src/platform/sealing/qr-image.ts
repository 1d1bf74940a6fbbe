import { PNG } from 'pngjs';
import qrcode from 'qrcode-generator';

/**
 * A QR tag's payload as a PNG, drawn by the server like every other value: black modules on
 * white with the 4-module quiet zone scanners need, one pixel per module scaled up so a PDF
 * viewer's interpolation cannot blur the edges.
 */
export function qrPng(text: string, scale = 8): Buffer {
  // qrcode-generator's byte mode keeps one byte per character: feed it UTF-8 (what scanners read).
  let binary = '';
  for (const byte of Buffer.from(text, 'utf8')) binary += String.fromCharCode(byte);
  const qr = qrcode(0, 'M');
  qr.addData(binary);
  qr.make();
  const modules = qr.getModuleCount();
  const side = (modules + 8) * scale;
  const png = new PNG({ width: side, height: side });
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const row = Math.floor(y / scale) - 4;
      const col = Math.floor(x / scale) - 4;
      const dark = row >= 0 && col >= 0 && row < modules && col < modules && qr.isDark(row, col);
      const at = (y * side + x) * 4;
      const shade = dark ? 0 : 255;
      png.data[at] = shade;
      png.data[at + 1] = shade;
      png.data[at + 2] = shade;
      png.data[at + 3] = 255;
    }
  }
  return PNG.sync.write(png);
}

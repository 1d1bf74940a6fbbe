import qrcode from 'qrcode-generator';
import { useMemo } from 'react';

/**
 * The text as UTF-8 bytes, one per character: qrcode-generator's byte mode keeps only the low
 * byte of each character, which would garble anything beyond Latin-1 (Hindi, ₹). Scanners read
 * byte-mode data as UTF-8. ASCII (an otpauth URI) is unchanged.
 */
function utf8Binary(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return binary;
}

/** A QR code drawn as one SVG path (no image round-trip, crisp at any size). */
export function QrCode({
  value,
  label,
  size = 200,
  testId = 'totp-qr',
}: {
  readonly value: string;
  readonly label: string;
  readonly size?: number;
  readonly testId?: string;
}) {
  const { path, count } = useMemo(() => {
    const qr = qrcode(0, 'M');
    qr.addData(utf8Binary(value));
    qr.make();
    const modules = qr.getModuleCount();
    let d = '';
    for (let row = 0; row < modules; row++) {
      for (let col = 0; col < modules; col++) {
        if (qr.isDark(row, col)) d += `M${col + 4} ${row + 4}h1v1h-1z`;
      }
    }
    return { path: d, count: modules + 8 };
  }, [value]);
  return (
    <svg
      role="img"
      aria-label={label}
      width={size}
      height={size}
      viewBox={`0 0 ${count} ${count}`}
      shapeRendering="crispEdges"
      data-testid={testId}
      data-modules={count - 8}
      style={{ background: '#fff', borderRadius: 8, maxWidth: '100%', height: 'auto' }}
    >
      <path d={path} fill="#000" />
    </svg>
  );
}

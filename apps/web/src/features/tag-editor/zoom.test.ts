import type { PageGeometry } from '@pakt/domain';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ZOOM_LIMITS, fitToWidthZoom, stepZoom, zoomPercent } from './zoom';

const A4: PageGeometry = { width: 595, height: 842, x: 0, y: 0, rotate: 0 };

describe('zoom', () => {
  it('steps by 0.3 within 0.6 and 3, and stops at the limits', () => {
    expect(stepZoom(1, 1, DEFAULT_ZOOM_LIMITS)).toBe(1.3);
    expect(stepZoom(0.6, 1, DEFAULT_ZOOM_LIMITS)).toBe(0.9);
    expect(stepZoom(0.7, -1, DEFAULT_ZOOM_LIMITS)).toBe(0.6);
    expect(stepZoom(0.6, -1, DEFAULT_ZOOM_LIMITS)).toBeNull();
    expect(stepZoom(2.9, 1, DEFAULT_ZOOM_LIMITS)).toBe(3);
    expect(stepZoom(3, 1, DEFAULT_ZOOM_LIMITS)).toBeNull();
    // A zoom from elsewhere (a changed configuration) is brought back inside the limits.
    expect(stepZoom(0.5, -1, DEFAULT_ZOOM_LIMITS)).toBeNull();
    expect(stepZoom(0.2, 1, DEFAULT_ZOOM_LIMITS)).toBe(0.6);
  });

  it('fits the widest page as shown, rotation included, within the limits', () => {
    expect(fitToWidthZoom(595, [A4], DEFAULT_ZOOM_LIMITS)).toBe(1);
    // Turned a quarter, A4 shows 842 wide.
    expect(fitToWidthZoom(842, [A4, { ...A4, rotate: 90 }], DEFAULT_ZOOM_LIMITS)).toBe(1);
    expect(fitToWidthZoom(400, [A4], DEFAULT_ZOOM_LIMITS)).toBe(0.672);
    // A narrow phone: never below the configured minimum (spec §5); the page area scrolls sideways.
    expect(fitToWidthZoom(300, [A4], DEFAULT_ZOOM_LIMITS)).toBe(0.6);
    expect(fitToWidthZoom(50, [A4], DEFAULT_ZOOM_LIMITS)).toBe(0.6);
    expect(fitToWidthZoom(5000, [A4], DEFAULT_ZOOM_LIMITS)).toBe(3);
    expect(fitToWidthZoom(0, [A4], DEFAULT_ZOOM_LIMITS)).toBe(1);
    expect(zoomPercent(1.129)).toBe(113);
  });
});

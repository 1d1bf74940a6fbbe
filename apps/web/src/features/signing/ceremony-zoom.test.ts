import type { PageGeometry } from '@pakt/domain';
import { describe, expect, it } from 'vitest';
import { fitWidthZoom, pinchZoom } from './ceremony-zoom';

const A4: PageGeometry = { width: 595, height: 842, x: 0, y: 0, rotate: 0 };
const limits = { min: 0.6, max: 3, step: 0.3 };

describe('fit to width', () => {
  it('fits a 360 px phone exactly, below the minimum zoom: it is a mode, not a zoom value', () => {
    // 360 px less the app's 12 px margins and the pages' 8 px padding each side.
    const zoom = fitWidthZoom(360 - 24 - 16, [A4])!;
    expect(zoom).toBe(0.537);
    expect(A4.width * zoom).toBeLessThanOrEqual(320);
    expect(zoom).toBeLessThan(limits.min);
  });

  it('fits the widest page, turned pages by their width as shown', () => {
    expect(fitWidthZoom(842, [A4, { ...A4, rotate: 90 }])).toBe(1);
  });

  it('has nothing to fit before the column is laid out', () => {
    expect(fitWidthZoom(0, [A4])).toBeNull();
    expect(fitWidthZoom(400, [])).toBeNull();
  });
});

describe('pinch zoom', () => {
  it('follows the fingers, held to the configured limits', () => {
    expect(pinchZoom({ start: 1, ratio: 1.5, fit: 1.2, limits })).toBe(1.5);
    expect(pinchZoom({ start: 1, ratio: 10, fit: 1.2, limits })).toBe(3);
    expect(pinchZoom({ start: 1, ratio: 0.1, fit: 1.2, limits })).toBe(0.6);
  });

  it('goes back to fitting the width when pinched below the minimum on a phone, or stops at the minimum', () => {
    expect(pinchZoom({ start: 1, ratio: 0.3, fit: 0.537, limits })).toBe('fit');
    expect(pinchZoom({ start: 1, ratio: 0.58, fit: 0.537, limits })).toBe(0.6);
    // From the fit, a small spread is not yet a zoom of its own.
    expect(pinchZoom({ start: 0.537, ratio: 1.05, fit: 0.537, limits })).toBe('fit');
    expect(pinchZoom({ start: 0.537, ratio: 1.5, fit: 0.537, limits })).toBe(0.81);
  });

  it('ignores a gesture with no spread to measure', () => {
    expect(pinchZoom({ start: 1.2, ratio: Number.NaN, fit: 1, limits })).toBe(1.2);
    expect(pinchZoom({ start: 1.2, ratio: 0, fit: 1, limits })).toBe(1.2);
  });
});

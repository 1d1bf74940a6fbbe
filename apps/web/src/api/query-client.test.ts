import { describe, expect, it } from 'vitest';
import { ApiError } from './client';
import { shouldRetry } from './query-client';

const failure = (httpStatus: number) => new ApiError({ code: -1, httpStatus, message: 'failed' });

describe('shouldRetry', () => {
  it('retries a missing answer twice, then gives up', () => {
    expect([0, 1, 2].map((count) => shouldRetry(count, failure(0)))).toEqual([true, true, false]);
  });

  it.each([400, 401, 403, 404, 500])('never repeats an answered failure (HTTP %i)', (status) => {
    expect(shouldRetry(0, failure(status))).toBe(false);
  });

  it('does not retry errors that are not API errors', () => {
    expect(shouldRetry(0, new Error('render bug'))).toBe(false);
  });
});

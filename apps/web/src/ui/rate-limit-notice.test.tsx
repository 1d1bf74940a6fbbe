import { act, fireEvent, renderHook, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client';
import { retryAfterSeconds } from '../api/rate-limit';
import en from '../i18n/en.json';
import { jsonResponse, stubApi } from '../test/fake-api';
import { inputLabelled, renderApp, typeInto } from '../test/render-app';
import { useRateLimitWait } from './rate-limit-notice';

/** The server's answer to one call too many from this address (issue 17). */
const tooMany = (retryAfter: number) => jsonResponse({ code: -1, data: { retryAfter }, message: `Too many requests: try again in ${retryAfter} seconds.` }, 429);
const waitText = (count: number) => (count === 1 ? en.common.tooManyAttempts_one : en.common.tooManyAttempts_other).replace('{{count}}', String(count));
const submitButton = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;

afterEach(() => vi.useRealTimers());

describe('retryAfterSeconds', () => {
  it('reads the wait of a rate-limit refusal only', () => {
    expect(retryAfterSeconds(new ApiError({ code: -1, httpStatus: 429, message: '', data: { retryAfter: 42 } }))).toBe(42);
    // A proxy's own 429 says nothing: a minute is a fair guess.
    expect(retryAfterSeconds(new ApiError({ code: -1, httpStatus: 429, message: '' }))).toBe(60);
    // The account-level limits have codes and messages of their own.
    expect(retryAfterSeconds(new ApiError({ code: -227, httpStatus: 429, message: '' }))).toBeNull();
    expect(retryAfterSeconds(new ApiError({ code: -16, httpStatus: 401, message: '' }))).toBeNull();
    expect(retryAfterSeconds(new Error('boom'))).toBeNull();
  });
});

describe('useRateLimitWait', () => {
  it('counts the wait down to zero, a second at a time', () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useRateLimitWait());
    expect(result.current.wait).toBe(0);
    let refused = false;
    act(() => {
      refused = result.current.refuse(new ApiError({ code: -1, httpStatus: 429, message: '', data: { retryAfter: 2 } }));
    });
    expect(refused).toBe(true);
    expect(result.current.wait).toBe(2);
    act(() => void vi.advanceTimersByTime(1000));
    expect(result.current.wait).toBe(1);
    act(() => void vi.advanceTimersByTime(1000));
    expect(result.current.wait).toBe(0);
    act(() => {
      refused = result.current.refuse(new ApiError({ code: -16, httpStatus: 401, message: '' }));
    });
    expect(refused).toBe(false);
    expect(result.current.wait).toBe(0);
  });
});

describe('forms refused for too many requests', () => {
  it('the sign-in form shows the wait, keeps the password and holds its button', async () => {
    stubApi({ 'POST /msbapi/v1/authenticate': () => tooMany(45) });
    renderApp('/login');
    await screen.findByRole('heading', { level: 1, name: en.login.title });
    typeInto(en.common.email, 'asha@example.com');
    typeInto(en.common.password, 'Correct-horse-1');
    fireEvent.click(submitButton(en.login.submit));
    expect((await screen.findByRole('alert')).textContent).toBe(waitText(45));
    expect(submitButton(en.login.submit).disabled).toBe(true);
    expect(inputLabelled(en.common.password).value).toBe('Correct-horse-1');
  });

  it('the forgot-password form shows the wait and holds its button', async () => {
    stubApi({ 'POST /msbapi/public/users/forgotPassword': () => tooMany(1) });
    renderApp('/forgetpassword');
    await screen.findByRole('heading', { level: 1, name: en.forgotPassword.title });
    typeInto(en.common.email, 'asha@example.com');
    fireEvent.click(submitButton(en.forgotPassword.submit));
    expect((await screen.findByRole('alert')).textContent).toBe(waitText(1));
    expect(submitButton(en.forgotPassword.submit).disabled).toBe(true);
  });
});

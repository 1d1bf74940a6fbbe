import { DomainError, ErrorEnvelope, ResponseCode } from '@pakt/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { buildTestApp, type TestApp } from '../test/test-app';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({
    beforeReady(app) {
      app.get('/msbapi/test/fault', async () => {
        throw new Error('connection to 10.0.0.7 failed: password "hunter2" rejected');
      });
      app.get('/msbapi/test/domain', async () => {
        throw new DomainError(ResponseCode.TRIAL_PERIOD_EXPIRED, 'The trial period has ended.');
      });
      app.withTypeProvider<ZodTypeProvider>().post(
        '/msbapi/test/echo',
        { schema: { body: z.object({ name: z.string().min(2) }) } },
        async (request) => ({ code: 1, data: request.body }),
      );
      app.withTypeProvider<ZodTypeProvider>().get(
        '/msbapi/test/bad-response',
        { schema: { response: { 200: z.object({ code: z.number(), data: z.object({ n: z.number() }) }) } } },
        async () => ({ code: 1, data: { n: 'not a number' } }) as never,
      );
    },
  });
});
afterAll(() => t.close());

describe('error handling', () => {
  it('answers malformed JSON with 400 and code -6', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/msbapi/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": "ab"',
    });
    expect(res.statusCode).toBe(400);
    expect(ErrorEnvelope.parse(res.json())).toMatchObject({ code: -6, data: null });
    expect(res.json().message).toMatch(/not valid JSON/);
  });

  it('answers a body that fails its schema with 400, code -6 and the field at fault', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/msbapi/test/echo', payload: { name: 'a' } });
    expect(res.statusCode).toBe(400);
    const body = ErrorEnvelope.parse(res.json());
    expect(body.code).toBe(-6);
    expect(body.issues?.[0]?.path).toBe('body.name');
  });

  it('answers an unknown API route with a 404 envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/msbapi/v2/nothing-here?x=1' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json()).toEqual({ code: -1, data: null, message: 'No route GET /msbapi/v2/nothing-here.' });
  });

  it('answers an unknown page with the envelope when no web app is built', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/dashboard' });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe(-1);
  });

  it('answers a thrown fault with 500 and code -2, revealing nothing of it', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/msbapi/test/fault' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ code: -2, data: null, message: 'Internal server error.' });
    expect(res.body).not.toMatch(/hunter2|10\.0\.0\.7|at .*\.ts|stack/);
  });

  it('maps a domain error to the HTTP status of its catalogue code', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/msbapi/test/domain' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ code: -88, data: null, message: 'The trial period has ended.' });
  });

  it('treats a response that breaks its own schema as a fault, not as data', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/msbapi/test/bad-response' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ code: -2, data: null, message: 'Internal server error.' });
  });

  it('answers an unsupported media type with its 4xx status and code -6', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/msbapi/test/echo',
      headers: { 'content-type': 'application/x-unknown' },
      payload: 'name=ab',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().code).toBe(-6);
  });
});

import { buildPath, type Endpoint, type EndpointData, type EndpointInput } from '@pakt/domain';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { multipartForm, type MultipartFile } from './multipart';

/** Whoever calls: the headers their requests carry (a bearer token and the tenant they chose). */
export interface Caller {
  readonly headers: Readonly<Record<string, string>>;
}

/** An answer with its envelope read once: `data` typed by the endpoint, `code` the catalogue code. */
export type Answer<E extends Endpoint> = LightMyRequestResponse & {
  readonly code: number | undefined;
  readonly data: EndpointData<E>;
};

function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined && item !== null) search.append(key, item instanceof Date ? item.toISOString() : String(item));
    }
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** A body's fields as a form sends them: strings, with the absent ones left out. */
function formFields(body: unknown): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries((body ?? {}) as Record<string, unknown>)) {
    if (value !== undefined && value !== null) fields[key] = String(value);
  }
  return fields;
}

/**
 * Calls an endpoint of the contract as the web client would: its method and path (params filled
 * in and encoded), its query, its body as the contract says it travels (JSON or form). The input
 * is typed by the endpoint, so a test cannot call a path that no longer exists or send a body of
 * the wrong shape. A multipart endpoint's body travels as the form's text fields, before `file`
 * as a browser sends them; a test that must send a malformed form builds it with test/multipart.ts.
 */
export async function inject<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  input: EndpointInput<E> & { readonly as?: Caller; readonly headers?: Readonly<Record<string, string>>; readonly file?: MultipartFile },
): Promise<Answer<E>> {
  if (input.file && endpoint.bodyEncoding !== 'multipart') throw new Error(`${endpoint.method} ${endpoint.path} takes no file`);
  const url = buildPath(endpoint.path, (input.params ?? {}) as Record<string, string | number>) + queryString(input.query as Record<string, unknown> | undefined);
  const headers: Record<string, string> = { ...input.as?.headers, ...input.headers };
  let payload: string | Buffer | undefined;
  if (endpoint.bodyEncoding === 'multipart') {
    const form = multipartForm(formFields(input.body), input.file);
    payload = form.payload;
    Object.assign(headers, form.headers);
  } else if (input.body !== undefined) {
    if (endpoint.bodyEncoding === 'form') {
      payload = new URLSearchParams(formFields(input.body)).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else {
      payload = JSON.stringify(input.body);
      headers['content-type'] = 'application/json';
    }
  }
  const response = await app.inject({ method: endpoint.method, url, headers, ...(payload === undefined ? {} : { payload }) });
  let envelope: { code?: number; data?: unknown } = {};
  try {
    envelope = response.json();
  } catch {
    // A binary answer, or none: the status still tells.
  }
  return Object.assign(response, { code: envelope.code, data: envelope.data as EndpointData<E> });
}

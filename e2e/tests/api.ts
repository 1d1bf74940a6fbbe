import { buildPath, type Endpoint, type EndpointData, type EndpointInput } from '@pakt/domain';
import { expect, type APIRequestContext, type APIResponse } from '@playwright/test';

/** What a journey sends besides the endpoint's own parts: the caller's headers. */
type CallInput<E extends Endpoint> = EndpointInput<E> & { readonly headers?: Record<string, string> };

function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) if (item !== undefined && item !== null) search.append(key, String(item));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/**
 * Calls an endpoint of the contract through Playwright's request context, as the web client
 * would: its method and path (params filled in and encoded), its query, and its body as the
 * contract says it travels (JSON or form). Typed by the endpoint, so a journey's set-up cannot
 * call a path that no longer exists or send a body of the wrong shape. For arranging data and
 * reading what the server stored; what a person does goes through the screens.
 */
export function call<E extends Endpoint>(request: APIRequestContext, endpoint: E, input: CallInput<E>): Promise<APIResponse> {
  if (endpoint.bodyEncoding === 'multipart') throw new Error(`${endpoint.method} ${endpoint.path} is multipart: send it with request.post(…, { multipart })`);
  const url = buildPath(endpoint.path, (input.params ?? {}) as Record<string, string | number>) + queryString(input.query as Record<string, unknown> | undefined);
  const body = input.body as Record<string, string | number | boolean> | undefined;
  return request.fetch(url, {
    method: endpoint.method,
    ...(input.headers ? { headers: input.headers } : {}),
    ...(body === undefined ? {} : endpoint.bodyEncoding === 'form' ? { form: body } : { data: body }),
  });
}

/** The typed `data` of a successful call (the journey fails with the answer's body otherwise). */
export async function callData<E extends Endpoint>(request: APIRequestContext, endpoint: E, input: CallInput<E>): Promise<EndpointData<E>> {
  const response = await call(request, endpoint, input);
  expect(response.ok(), `${endpoint.method} ${endpoint.path}: ${await response.text()}`).toBe(true);
  return ((await response.json()) as { data: EndpointData<E> }).data;
}

import { randomUUID } from 'node:crypto';
import { buildPath, createEpak, createSignatureBlocks, type Endpoint, type EndpointData, type EndpointInput, listWorkflowStates, startEpak, type TagInput, uploadDocument, type WorkflowStateType } from '@pakt/domain';
import { expect, type APIRequestContext, type APIResponse } from '@playwright/test';

/** A file part of a multipart call: its bytes, the name the browser gives it, and its type. */
export interface CallFile {
  readonly buffer: Buffer;
  readonly name: string;
  readonly mimeType?: string;
}

/** What a journey sends besides the endpoint's own parts: the caller's headers, and a multipart call's file. */
type CallInput<E extends Endpoint> = EndpointInput<E> & { readonly headers?: Record<string, string>; readonly file?: CallFile };

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
 * contract says it travels (JSON, form, or multipart with its text fields before `file`). Typed
 * by the endpoint, so a journey's set-up cannot call a path that no longer exists or send a body
 * of the wrong shape. For arranging data and reading what the server stored; what a person does
 * goes through the screens.
 */
export function call<E extends Endpoint>(request: APIRequestContext, endpoint: E, input: CallInput<E>): Promise<APIResponse> {
  if (input.file && endpoint.bodyEncoding !== 'multipart') throw new Error(`${endpoint.method} ${endpoint.path} takes no file`);
  const url = buildPath(endpoint.path, (input.params ?? {}) as Record<string, string | number>) + queryString(input.query as Record<string, unknown> | undefined);
  const body = input.body as Record<string, string | number | boolean> | undefined;
  const options: NonNullable<Parameters<APIRequestContext['fetch']>[1]> = { method: endpoint.method, ...(input.headers ? { headers: input.headers } : {}) };
  if (endpoint.bodyEncoding === 'multipart') {
    // Playwright writes the parts in key order: the text fields, then the file, as a browser does.
    const parts: Record<string, string | number | boolean | { name: string; mimeType: string; buffer: Buffer }> = {};
    for (const [key, value] of Object.entries(body ?? {})) if (value !== undefined && value !== null) parts[key] = value;
    if (input.file) parts.file = { name: input.file.name, mimeType: input.file.mimeType ?? 'application/octet-stream', buffer: input.file.buffer };
    options.multipart = parts;
  } else if (body !== undefined) {
    if (endpoint.bodyEncoding === 'form') options.form = body;
    else options.data = body;
  }
  return request.fetch(url, options);
}

/** The typed `data` of a successful call (the journey fails with the answer's body otherwise). */
export async function callData<E extends Endpoint>(request: APIRequestContext, endpoint: E, input: CallInput<E>): Promise<EndpointData<E>> {
  const response = await call(request, endpoint, input);
  expect(response.ok(), `${endpoint.method} ${endpoint.path}: ${await response.text()}`).toBe(true);
  return ((await response.json()) as { data: EndpointData<E> }).data;
}

/**
 * A draft ePak made through the API for a journey's set-up: the file uploaded, then composed with
 * one recipient list per step, each step given by its workflow state's type.
 */
export async function composedEpakThroughApi(
  request: APIRequestContext,
  options: {
    headers: Record<string, string>;
    file: CallFile;
    subject: string;
    signingPolicy: EndpointInput<typeof createEpak>['body']['signingPolicy'];
    steps: readonly { type: WorkflowStateType; recipients: readonly string[] }[];
  },
): Promise<EndpointData<typeof createEpak>> {
  const { headers } = options;
  const uploaded = await callData(request, uploadDocument, { headers, file: options.file });
  const { states } = await callData(request, listWorkflowStates, { headers });
  const stateOf = (type: WorkflowStateType) => states.find((state) => state.type === type)!.workflowStateId;
  return callData(request, createEpak, {
    headers,
    body: {
      subject: options.subject,
      documentIds: [uploaded.documentId],
      signingPolicy: options.signingPolicy,
      steps: options.steps.map((step) => ({ workflowStateId: stateOf(step.type), recipients: step.recipients.map((email) => ({ email })) })),
    },
  });
}

/**
 * An ePak made and sent through the API for a journey's set-up: composed as composedEpakThroughApi
 * does, a signature field placed on the first page for each recipient of a signing step (an ePak
 * is not sent with a signer who has nowhere to sign, -62), then started.
 */
export async function startedEpakThroughApi(
  request: APIRequestContext,
  options: Parameters<typeof composedEpakThroughApi>[1],
): Promise<EndpointData<typeof startEpak>> {
  const epak = await composedEpakThroughApi(request, options);
  const signing: readonly WorkflowStateType[] = ['SIGN', 'INPERSONSIGN'];
  const tags: TagInput[] = options.steps.flatMap((step, index) =>
    signing.includes(step.type)
      ? step.recipients.map((email, place) => ({ uuid: randomUUID(), type: 'signature' as const, pageNumber: 1, positionX: 40 + (place % 3) * 180, positionY: 560 + index * 60, blockWidth: 160, blockHeight: 50, userEmail: email, wfsOrderId: index + 1 }))
      : [],
  );
  if (tags.length > 0) await callData(request, createSignatureBlocks, { headers: options.headers, params: { ePakId: epak.ePakId, documentId: epak.documents[0]!.documentId }, body: { tags } });
  return callData(request, startEpak, { headers: options.headers, params: { ePakId: epak.ePakId } });
}

import {
  API_HEADERS,
  buildPath,
  ErrorEnvelope,
  ResponseCode,
  SUCCESS_CODE,
  type AccessDeniedStatus,
  type Endpoint,
  type EndpointData,
  type EndpointInput,
} from '@pakt/domain';
import { currentLanguage } from '../i18n/i18n';
import { sessionStore, type SessionStore } from './session-store';

export const TENANT_HEADER = API_HEADERS.tenant;

export interface ApiIssue {
  readonly path: string;
  readonly message: string;
}

/** A call that did not end in `code === 1`, whatever the reason (server, network or contract). */
export class ApiError extends Error {
  readonly code: number;
  /** 0 when no HTTP answer arrived at all. */
  readonly httpStatus: number;
  readonly issues: readonly ApiIssue[] | undefined;

  constructor(options: { code: number; httpStatus: number; message: string; issues?: readonly ApiIssue[] }) {
    super(options.message);
    this.name = 'ApiError';
    this.code = options.code;
    this.httpStatus = options.httpStatus;
    this.issues = options.issues;
  }
}

export const accessDeniedPath = (status: AccessDeniedStatus) => `/accessdenied?status=${status}`;

export type NavigationHandler = (to: string) => void;

export interface CallOptions {
  readonly signal?: AbortSignal;
}

export type CallInput<E extends Endpoint> = EndpointInput<E>;

type CallArgs<E extends Endpoint> = object extends CallInput<E>
  ? [input?: CallInput<E>, options?: CallOptions]
  : [input: CallInput<E>, options?: CallOptions];

export interface ApiClientOptions {
  readonly fetch?: typeof fetch;
  readonly session?: SessionStore;
  readonly getLanguage?: () => string;
  /** Where failures send the user; the app wires in the router, tests a spy. */
  readonly navigate?: NavigationHandler;
}

export interface ApiClient {
  callApi<E extends Endpoint>(endpoint: E, ...args: CallArgs<E>): Promise<EndpointData<E>>;
  setNavigationHandler(handler: NavigationHandler): void;
}

const TOKEN_INVALID_CODES: ReadonlySet<number> = new Set([
  ResponseCode.INVALID_ACCESS_TOKEN.code,
  ResponseCode.INVALID_CLIENT.code,
  ResponseCode.TOKEN_IP_MISMATCH.code,
  ResponseCode.INVALID_JWT.code,
]);

function toQueryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  const append = (key: string, value: unknown) => {
    if (value === undefined || value === null) return;
    search.append(key, value instanceof Date ? value.toISOString() : String(value));
  };
  for (const [key, value] of Object.entries(query)) {
    if (Array.isArray(value)) value.forEach((item) => append(key, item));
    else append(key, value);
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    // Proxies and crashed servers answer with HTML or nothing; the status still tells the story.
    return undefined;
  }
}

function envelopeCode(body: unknown): number | undefined {
  if (typeof body === 'object' && body !== null && 'code' in body && typeof body.code === 'number') {
    return body.code;
  }
  return undefined;
}

export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const session = options.session ?? sessionStore;
  const getLanguage = options.getLanguage ?? currentLanguage;
  let navigate: NavigationHandler = options.navigate ?? ((to) => window.location.assign(to));

  /** Spec section 8: where a failed call sends the user. Code-specific rules come before the
   * generic HTTP ones because -73 and -88 travel with a 403 that would otherwise mean forbidden. */
  function handleFailure(error: ApiError): void {
    const { code, httpStatus } = error;
    if (httpStatus === 500) return navigate(accessDeniedPath('servererror'));
    if (TOKEN_INVALID_CODES.has(code)) {
      session.clear();
      return navigate(accessDeniedPath('unauthorized'));
    }
    if (code === ResponseCode.TOKEN_EXPIRED.code) {
      // TODO(session refresh): spec section 4 "An expired access token triggers one shared token
      // refresh; the failed request is then retried once", and section 8 "401 on non-public calls
      // tries a session refresh". Until refresh exists every expired token ends here, which the
      // spec prescribes only once the refresh has failed or no refresh token exists.
      return navigate(accessDeniedPath('expired'));
    }
    if (code === ResponseCode.USER_NOT_ENABLED.code) return navigate('/changepassword');
    if (code === ResponseCode.TWO_FACTOR_REQUIRED.code) return navigate('/authenticate');
    if (httpStatus === 403) {
      return navigate(
        accessDeniedPath(code === ResponseCode.TRIAL_PERIOD_EXPIRED.code ? 'licenseexpired' : 'forbidden'),
      );
    }
  }

  async function callApi<E extends Endpoint>(endpoint: E, ...args: CallArgs<E>): Promise<EndpointData<E>> {
    const [input, callOptions] = args;
    const params = input?.params as Record<string, string | number> | undefined;
    const url = buildPath(endpoint.path, params) + toQueryString(input?.query as Record<string, unknown> | undefined);

    const headers = new Headers({ Accept: 'application/json', 'Accept-Language': getLanguage() });
    const current = session.get();
    if (current) {
      headers.set('Authorization', `Bearer ${current.accessToken}`);
      if (current.tenantId) headers.set(TENANT_HEADER, current.tenantId);
    }
    const hasBody = input?.body !== undefined;
    if (hasBody) headers.set('Content-Type', 'application/json');

    let response: Response;
    try {
      response = await doFetch(url, {
        method: endpoint.method,
        headers,
        body: hasBody ? JSON.stringify(input?.body) : undefined,
        signal: callOptions?.signal,
      });
    } catch (cause) {
      if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
      // Spec section 8: status 0 leaves the request pending, i.e. no redirect and no session
      // change. The caller still learns of it so a page can offer to try again.
      throw new ApiError({
        code: ResponseCode.GENERIC_ERROR.code,
        httpStatus: 0,
        message: cause instanceof Error ? cause.message : 'Network request failed',
      });
    }

    const body = await readJson(response);
    const code = envelopeCode(body);

    if (code === SUCCESS_CODE && response.ok) {
      const data = endpoint.response.safeParse((body as { data?: unknown }).data);
      if (data.success) return data.data as EndpointData<E>;
      // The server answered outside its own contract: a bug of ours, not something to redirect on.
      throw new ApiError({
        code: ResponseCode.UNABLE_TO_PARSE_DATA.code,
        httpStatus: response.status,
        message: `Response of ${endpoint.method} ${endpoint.path} does not match its schema`,
        issues: data.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
      });
    }

    const envelope = ErrorEnvelope.safeParse(body);
    const error = envelope.success
      ? new ApiError({
          code: envelope.data.code,
          httpStatus: response.status,
          message: envelope.data.message,
          ...(envelope.data.issues ? { issues: envelope.data.issues } : {}),
        })
      : new ApiError({
          code: code ?? (response.status >= 500 ? ResponseCode.SYSTEM_ERROR.code : ResponseCode.GENERIC_ERROR.code),
          httpStatus: response.status,
          message: `${endpoint.method} ${endpoint.path} failed with HTTP ${response.status}`,
        });
    handleFailure(error);
    throw error;
  }

  return {
    callApi,
    setNavigationHandler(handler) {
      navigate = handler;
    },
  };
}

/** The app's client: the router replaces its navigation handler once it exists. */
export const apiClient = createApiClient();
export const callApi = apiClient.callApi;

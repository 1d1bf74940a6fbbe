import {
  API_HEADERS,
  buildPath,
  COOKIE_TOKEN_TRANSPORT,
  ErrorEnvelope,
  refreshToken,
  ResponseCode,
  SESSION_RECOVERY_FAILED_LOG,
  SUCCESS_CODE,
  WEB_CLIENT_ID,
  type AccessDeniedStatus,
  type BinaryBody,
  type Endpoint,
  type EndpointData,
  type EndpointInput,
} from '@pakt/domain';
import { currentLanguage } from '../i18n/i18n';
import { xhrFetch, type ProgressFetch, type UploadProgress } from './client-upload';
import { sessionFromGrant, sessionStore, type SessionStore } from './session-store';

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
  /** What some refusals carry for the next step (e.g. -200's two-factor challenge); else null. */
  readonly data: Readonly<Record<string, unknown>> | null;

  constructor(options: {
    code: number;
    httpStatus: number;
    message: string;
    issues?: readonly ApiIssue[];
    data?: Readonly<Record<string, unknown>> | null;
  }) {
    super(options.message);
    this.name = 'ApiError';
    this.code = options.code;
    this.httpStatus = options.httpStatus;
    this.issues = options.issues;
    this.data = options.data ?? null;
  }
}

export const accessDeniedPath = (status: AccessDeniedStatus) => `/accessdenied?status=${status}`;

export type NavigationHandler = (to: string) => void;

export interface CallOptions {
  readonly signal?: AbortSignal;
  /**
   * `caller`: the page explains failures itself (sign-in, registration, logout), so the client
   * does not redirect. An expired session is still refreshed for guarded calls.
   */
  readonly failures?: 'redirect' | 'caller';
  /**
   * For a multipart endpoint (an upload): told as the request's bytes leave, so a page can show
   * the upload's progress. Given, the request goes by XMLHttpRequest (fetch cannot report it); a
   * retry after a refresh starts counting again. Other endpoints ignore it.
   */
  readonly onUploadProgress?: (progress: UploadProgress) => void;
}

export type { UploadProgress } from './client-upload';

export type CallInput<E extends Endpoint> = EndpointInput<E> & {
  /**
   * The files of a multipart endpoint (an upload), by form field name. They travel after the
   * body's fields; any other endpoint refuses them, since they would silently go nowhere.
   */
  readonly files?: Readonly<Record<string, Blob>>;
};

/**
 * What a call resolves to: the validated `data` of the envelope, or for an endpoint that answers
 * with bytes (its contract data is the server's BinaryBody) the bytes as a Blob carrying their
 * content type, ready for URL.createObjectURL.
 */
export type CallData<E extends Endpoint> = [EndpointData<E>] extends [BinaryBody] ? Blob : EndpointData<E>;

type CallArgs<E extends Endpoint> = object extends CallInput<E>
  ? [input?: CallInput<E>, options?: CallOptions]
  : [input: CallInput<E>, options?: CallOptions];

export interface ApiClientOptions {
  readonly fetch?: typeof fetch;
  readonly session?: SessionStore;
  readonly getLanguage?: () => string;
  /** Where failures send the user; the app wires in the router, tests a spy. */
  readonly navigate?: NavigationHandler;
  /** Where 'Unable to recover session !' goes (spec section 8: logged, not shown). */
  readonly log?: (message: string) => void;
  readonly now?: () => number;
  /**
   * Whether grants should keep the refresh token in the httpOnly cookie (API_HEADERS.tokenTransport).
   * True for the app's own session; a scoped session (a signing link's) has no refresh token and
   * must never replace the app's cookie.
   */
  readonly refreshCookie?: boolean;
  /** How an upload that reports its progress is sent (tests give a fake); XMLHttpRequest by default. */
  readonly progressFetch?: ProgressFetch;
}

/** What trying to renew the session came to. */
export type RefreshOutcome = 'refreshed' | 'failed' | 'unreachable';

export interface ApiClient {
  callApi<E extends Endpoint>(endpoint: E, ...args: CallArgs<E>): Promise<CallData<E>>;
  /**
   * Renews the tokens now (the session keep-alive), or because the server refused
   * `staleAccessToken` (a socket): shares a refresh already under way, and does nothing when the
   * session already holds a newer token than the refused one.
   */
  refreshSession(staleAccessToken?: string): Promise<RefreshOutcome>;
  /**
   * At page load: when someone was signed in here but this page holds no access token (a reload,
   * a new tab), trades the refresh cookie for tokens, once. A refusal signs the browser out
   * quietly (no redirect); an unreachable server leaves things to the next load.
   */
  restoreSession(): Promise<RefreshOutcome>;
  setNavigationHandler(handler: NavigationHandler): void;
}

function formBody(body: unknown): URLSearchParams {
  const form = new URLSearchParams();
  if (typeof body === 'object' && body !== null) {
    for (const [key, value] of Object.entries(body)) {
      if (value !== undefined && value !== null) form.append(key, String(value));
    }
  }
  return form;
}

/** A fresh form for every send: a retry after a refresh must carry the same fields and files again. */
function multipartBody(body: unknown, files: Readonly<Record<string, Blob>> | undefined): FormData {
  const form = new FormData();
  if (typeof body === 'object' && body !== null) {
    for (const [key, value] of Object.entries(body)) {
      if (value !== undefined && value !== null) form.append(key, String(value));
    }
  }
  for (const [field, file] of Object.entries(files ?? {})) form.append(field, file);
  return form;
}

/**
 * Refusals a refresh cannot cure: the server answers the refresh the same way (a later sign-in
 * ended the session, -32; the session is tied to another address, -26), so asking is pointless.
 */
const NOT_REFRESHABLE_CODES: ReadonlySet<number> = new Set([ResponseCode.DUAL_SESSION_DETECTED.code, ResponseCode.TOKEN_IP_MISMATCH.code]);

/** Where a session ended by a sign-in elsewhere (-32) leads: the login page says why. */
export const SIGNED_IN_ELSEWHERE_PATH = '/login?session=elsewhere';

/** Spec sections 4 and 8: a guarded call refused for its token is worth one refresh and retry. */
function needsRefresh(error: ApiError): boolean {
  if (NOT_REFRESHABLE_CODES.has(error.code)) return false;
  return error.httpStatus === 401 || error.code === ResponseCode.TOKEN_EXPIRED.code;
}

/**
 * Serializes refreshes across the tabs of this browser where the Web Locks API exists: refresh
 * tokens rotate, and two tabs presenting the same one would get the session revoked.
 */
function withRefreshLock<T>(work: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks) return work();
  // The lib types wrap the callback's promise once more; `then` flattens it back, as the runtime does.
  return locks.request('pakt.session.refresh', work).then((result) => result);
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
  const log = options.log ?? ((message: string) => console.error(message));
  const now = options.now ?? Date.now;
  const refreshCookie = options.refreshCookie ?? true;
  const progressFetch = options.progressFetch ?? xhrFetch();
  let navigate: NavigationHandler = options.navigate ?? ((to) => window.location.assign(to));
  /** The refresh under way, shared by every call that fails while it runs. */
  let refreshing: Promise<RefreshOutcome> | null = null;

  /** Spec section 8: where a failed call sends the user. Code-specific rules come before the
   * generic HTTP ones because -73 and -88 travel with a 403 that would otherwise mean forbidden. */
  function handleFailure(error: ApiError): void {
    const { code, httpStatus } = error;
    if (httpStatus === 500) return navigate(accessDeniedPath('servererror'));
    if (code === ResponseCode.DUAL_SESSION_DETECTED.code) {
      session.clear();
      return navigate(SIGNED_IN_ELSEWHERE_PATH);
    }
    if (TOKEN_INVALID_CODES.has(code)) {
      session.clear();
      return navigate(accessDeniedPath('unauthorized'));
    }
    if (code === ResponseCode.TOKEN_EXPIRED.code) {
      // Reached only when refreshing is not possible (a public call) or did not help (the retry
      // was refused again): the session cannot be recovered.
      session.clear();
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

  /** One HTTP exchange: the data on success, otherwise an ApiError; no redirects, no refresh. */
  async function send<E extends Endpoint>(
    endpoint: E,
    input: CallInput<E> | undefined,
    signal: AbortSignal | undefined,
    credentials: boolean,
    onUploadProgress?: (progress: UploadProgress) => void,
  ): Promise<CallData<E>> {
    const params = input?.params as Record<string, string | number> | undefined;
    const url = buildPath(endpoint.path, params) + toQueryString(input?.query as Record<string, unknown> | undefined);
    const multipart = endpoint.bodyEncoding === 'multipart';
    if (input?.files && !multipart) {
      throw new Error(`${endpoint.method} ${endpoint.path} is not a multipart endpoint; it cannot send files`);
    }

    // A binary endpoint still answers failures with the JSON envelope, so both are acceptable.
    const accept = endpoint.binaryResponse ? '*/*' : 'application/json';
    const headers = new Headers({ Accept: accept, [API_HEADERS.acceptLanguage]: getLanguage() });
    // Every grant (sign-in, refresh...) then keeps the refresh token in the httpOnly cookie.
    if (refreshCookie) headers.set(API_HEADERS.tokenTransport, COOKIE_TOKEN_TRANSPORT);
    // Read at send time, so a retry after a refresh carries the new token.
    const current = credentials ? session.get() : null;
    if (current) {
      headers.set(API_HEADERS.authorization, `Bearer ${current.accessToken}`);
      if (current.tenantUuid) headers.set(TENANT_HEADER, current.tenantUuid);
    }
    let body: string | URLSearchParams | FormData | undefined;
    let form: FormData | undefined;
    if (multipart) {
      // No Content-Type of our own: the browser writes it with the boundary it chose.
      body = form = multipartBody(input?.body, input?.files);
    } else if (input?.body !== undefined) {
      // The contract says how a body travels (sign-in is form-encoded by spec section 7).
      if (endpoint.bodyEncoding === 'form') {
        body = formBody(input.body);
        headers.set('Content-Type', 'application/x-www-form-urlencoded');
      } else {
        body = JSON.stringify(input.body);
        headers.set('Content-Type', 'application/json');
      }
    }

    let response: Response;
    try {
      response =
        form && onUploadProgress
          ? await progressFetch(url, { method: endpoint.method, headers, body: form, signal }, onUploadProgress)
          : await doFetch(url, { method: endpoint.method, headers, body, signal });
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

    if (endpoint.binaryResponse && response.ok) {
      // The bytes themselves; the Blob keeps the content type the server named.
      return (await response.blob()) as CallData<E>;
    }

    const json = await readJson(response);
    const code = envelopeCode(json);

    if (code === SUCCESS_CODE && response.ok) {
      const data = endpoint.response.safeParse((json as { data?: unknown }).data);
      if (data.success) return data.data as CallData<E>;
      // The server answered outside its own contract: a bug of ours, not something to redirect on.
      throw new ApiError({
        code: ResponseCode.UNABLE_TO_PARSE_DATA.code,
        httpStatus: response.status,
        message: `Response of ${endpoint.method} ${endpoint.path} does not match its schema`,
        issues: data.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
      });
    }

    const envelope = ErrorEnvelope.safeParse(json);
    throw envelope.success
      ? new ApiError({
          code: envelope.data.code,
          httpStatus: response.status,
          message: envelope.data.message,
          data: envelope.data.data,
          ...(envelope.data.issues ? { issues: envelope.data.issues } : {}),
        })
      : new ApiError({
          code: code ?? (response.status >= 500 ? ResponseCode.SYSTEM_ERROR.code : ResponseCode.GENERIC_ERROR.code),
          httpStatus: response.status,
          message: `${endpoint.method} ${endpoint.path} failed with HTTP ${response.status}`,
        });
  }

  /**
   * Trades the refresh cookie for new tokens. Runs under the cross-tab lock: tabs share the cookie
   * and it rotates, so a second tab must send it only after the first tab's answer has replaced
   * it (a rotated token presented again revokes the whole session).
   */
  async function exchangeRefreshToken(staleAccessToken: string | undefined): Promise<RefreshOutcome> {
    // Re-read: while this waited for the lock this page may have refreshed already.
    const current = session.get();
    if (!current && !session.remembered()) return 'failed';
    if (current && current.accessToken !== staleAccessToken) return 'refreshed';
    if (!refreshCookie) return 'failed';
    try {
      // No token in the body: the browser sends the httpOnly cookie, scoped to this path.
      const grant = await send(refreshToken, { body: { clientId: WEB_CLIENT_ID } }, undefined, false);
      // A logout (or another sign-in) during the exchange wins: these tokens must not bring the session back.
      const remembered = session.remembered();
      if (!remembered || session.get()?.accessToken !== current?.accessToken) return 'failed';
      session.set(sessionFromGrant(grant, now(), current?.tenantUuid ?? remembered.tenantUuid));
      return 'refreshed';
    } catch (error) {
      if (error instanceof ApiError && error.httpStatus === 0) return 'unreachable';
      return 'failed';
    }
  }

  /**
   * Spec section 4: "An expired access token triggers one shared token refresh". Every call that
   * fails with the same stale token waits for the same refresh; a call that failed with a token
   * already replaced simply retries with the new one.
   */
  function recoverSession(staleAccessToken: string | undefined): Promise<RefreshOutcome> {
    const current = session.get();
    // No token in this page but someone signed in at this browser: the cookie may restore it.
    if (!current && !session.remembered()) return Promise.resolve('failed');
    if (current && current.accessToken !== staleAccessToken) return Promise.resolve('refreshed');
    refreshing ??= withRefreshLock(() => exchangeRefreshToken(staleAccessToken)).finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  async function callApi<E extends Endpoint>(endpoint: E, ...args: CallArgs<E>): Promise<CallData<E>> {
    const [input, callOptions] = args;
    const signal = callOptions?.signal;
    const redirects = callOptions?.failures !== 'caller';
    const fail = (error: ApiError): never => {
      if (redirects) handleFailure(error);
      throw error;
    };

    const sentWith = session.get()?.accessToken;
    try {
      return await send(endpoint, input, signal, true, callOptions?.onUploadProgress);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (endpoint.access === 'public' || !needsRefresh(error)) return fail(error);
      // Signed out while the call was under way (a query of the page being left when the person
      // chose "Sign out"): its refusal is about a session they ended, so it neither refreshes nor
      // sends them to "session expired" over the sign-in page they are on.
      if (sentWith !== undefined && !session.get()) throw error;

      const outcome = await recoverSession(sentWith);
      if (outcome === 'unreachable') {
        // The server could not be asked; the session may well still be good, so nothing is cleared.
        throw new ApiError({ code: ResponseCode.GENERIC_ERROR.code, httpStatus: 0, message: 'Session refresh unreachable' });
      }
      if (outcome === 'failed') {
        log(SESSION_RECOVERY_FAILED_LOG);
        session.clear();
        if (redirects) navigate(accessDeniedPath('expired'));
        throw error;
      }
      // Retried once only: a second refusal goes through the ordinary rules, never another refresh.
      try {
        return await send(endpoint, input, signal, true, callOptions?.onUploadProgress);
      } catch (retryError) {
        if (retryError instanceof ApiError) return fail(retryError);
        throw retryError;
      }
    }
  }

  async function restoreSession(): Promise<RefreshOutcome> {
    if (session.get()) return 'refreshed';
    if (!session.remembered()) return 'failed';
    const outcome = await recoverSession(undefined);
    // The cookie is gone or dead: signed out, without the alarm of a redirect.
    if (outcome === 'failed') session.clear();
    return outcome;
  }

  return {
    callApi,
    refreshSession: (staleAccessToken?: string) => recoverSession(staleAccessToken ?? session.get()?.accessToken),
    restoreSession,
    setNavigationHandler(handler) {
      navigate = handler;
    },
  };
}

/** The app's client: the router replaces its navigation handler once it exists. */
export const apiClient = createApiClient();
export const callApi = apiClient.callApi;

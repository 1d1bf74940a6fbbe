import type { z } from 'zod';
import { envelopeOf } from '../envelope';
import type { Action } from '../permissions';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Who may call an endpoint. `public`: anyone; `user`: a signed-in user; `root`: the instance
 * administrator; `tenant`: a signed-in user acting inside one of their verified tenants
 * (selected by the tenant header).
 */
export type EndpointAccess = 'public' | 'user' | 'root' | 'tenant';

type AnyObject = z.ZodObject<z.ZodRawShape>;

/**
 * One API endpoint: its path (Fastify syntax, `:param`), who may call it, and one zod schema per
 * request part plus the schema of `data` in the success envelope. The server validates with it
 * and the web client is typed by it, so the two cannot drift apart.
 */
export interface Endpoint<
  P extends AnyObject | undefined = AnyObject | undefined,
  Q extends AnyObject | undefined = AnyObject | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType = z.ZodType,
  A extends EndpointAccess = EndpointAccess,
> {
  readonly method: HttpMethod;
  readonly path: `/msbapi/${string}`;
  readonly access: A;
  /**
   * The permission the caller needs, checked centrally before the handler runs. Checks that
   * depend on the loaded resource (whose profile, which role) stay in the command.
   */
  readonly action?: Action;
  readonly summary: string;
  readonly params?: P;
  readonly query?: Q;
  readonly body?: B;
  /** How the body travels; the spec's authenticate call is form-encoded, uploads multipart. */
  readonly bodyEncoding?: 'json' | 'form' | 'multipart';
  /** The answer is the bytes themselves (an image, a PDF), not the JSON envelope. */
  readonly binaryResponse?: boolean;
  /** Largest JSON body accepted, when an endpoint needs more than the server's 1 MB default. */
  readonly maxBodyBytes?: number;
  /**
   * Reachable with a session opened from a signing link (easy-sign exchange). Such a session
   * reaches only these endpoints, and only for the ePak its link was for (`ePakId` or `epakId`
   * in the path); everything else answers 403.
   */
  readonly signingLink?: boolean;
  readonly response: R;
}

export function defineEndpoint<
  P extends AnyObject | undefined = undefined,
  Q extends AnyObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  R extends z.ZodType = z.ZodType,
  A extends EndpointAccess = EndpointAccess,
>(endpoint: Endpoint<P, Q, B, R, A>): Endpoint<P, Q, B, R, A> {
  return endpoint;
}

/**
 * The schema of one request part, or never when the endpoint declares none. An optional field
 * reads as `Schema | undefined`, so the schema is extracted before testing it.
 */
type Part<T> = Extract<T, z.ZodType>;
type InferOr<T, Fallback> = [Part<T>] extends [never] ? Fallback : z.infer<Part<T>>;

/** What a caller supplies: the parts the endpoint declares, each typed by its schema. */
export type EndpointInput<E extends Endpoint> = ([Part<E['params']>] extends [never]
  ? { params?: undefined }
  : { params: z.input<Part<E['params']>> }) &
  ([Part<E['query']>] extends [never] ? { query?: undefined } : { query?: z.input<Part<E['query']>> }) &
  ([Part<E['body']>] extends [never] ? { body?: undefined } : { body: z.input<Part<E['body']>> });

export type EndpointParams<E extends Endpoint> = InferOr<E['params'], Record<string, never>>;
export type EndpointQuery<E extends Endpoint> = InferOr<E['query'], Record<string, never>>;
export type EndpointBody<E extends Endpoint> = InferOr<E['body'], undefined>;
export type EndpointData<E extends Endpoint> = z.infer<E['response']>;

/**
 * What a binary endpoint's handler hands back; the server streams it as the body. Either the
 * whole stream, or (for one stored file) a reader of byte ranges with the file's fixed identity,
 * so that a client can ask for part of it (HTTP Range: a viewer reading a large PDF as it goes,
 * a download resumed).
 */
export type BinaryBody = {
  contentType: string;
  size: number;
  /** Offered as a download under this name (Content-Disposition: attachment). */
  fileName?: string;
} & (
  | {
      /** A Node readable stream on the server; opaque to this package. */
      stream: unknown;
      ranged?: undefined;
    }
  | {
      stream?: undefined;
      ranged: {
        /** Names these exact bytes (the stored file's hash), sent as the ETag and matched against If-Range. */
        etag: string;
        /** A Node readable stream of bytes start..end (inclusive), or of all of them without a range. */
        read(range?: { start: number; end: number }): Promise<unknown>;
      };
    }
);

/** The full success body schema of an endpoint: `{ code, data, message? }`. */
export function responseEnvelope<E extends Endpoint>(endpoint: E) {
  return envelopeOf(endpoint.response);
}

/** Fills `:param` segments, encoding each value; throws on a missing one (a programming error). */
export function buildPath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter "${name}" for ${path}`);
    return encodeURIComponent(String(value));
  });
}

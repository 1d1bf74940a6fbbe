import {
  type BinaryBody,
  DomainError,
  effectivePermissionSettings,
  type Endpoint,
  type EndpointBody,
  type EndpointData,
  type EndpointParams,
  type EndpointQuery,
  enforce,
  ResponseCode,
  responseEnvelope,
  SUCCESS_CODE,
  type TenantSettings,
} from '@pakt/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from './app-context';
import { mustChangePassword } from '../features/identity/passwords';
import { loadTenantSettings, parseTenantSettings } from '../features/identity/tenant-configuration';
import { sendRangedFile } from './byte-ranges';
import { actorOf, type AuthFor, resolveAuth, type TenantAuth, type UserAuth } from './auth-guard';

// Filled before validation, so an unauthenticated caller learns nothing about the schemas.
const authOf = new WeakMap<FastifyRequest, UserAuth | TenantAuth>();
// The tenant's settings, loaded at most once per request: the permission check may need them,
// and so may the handler (recipient filters, disabled formats...).
const settingsOf = new WeakMap<FastifyRequest, Promise<TenantSettings>>();

export interface RouteInput<E extends Endpoint> {
  params: EndpointParams<E>;
  query: EndpointQuery<E>;
  body: EndpointBody<E>;
  auth: AuthFor<E['access']>;
  request: FastifyRequest;
  reply: FastifyReply;
  /** The caller's tenant's stored settings, read once per request (tenant endpoints only). */
  tenantSettings: () => Promise<TenantSettings>;
}

/**
 * Registers a handler for an endpoint of the domain contract. The contract's schemas validate
 * the request and the response; the caller is authenticated (and their tenant resolved) from
 * the contract's access kind before the handler runs; the handler returns only `data`, and the
 * envelope is added here.
 */
export function route<E extends Endpoint>(
  app: FastifyInstance,
  ctx: AppContext,
  endpoint: E,
  handler: (input: RouteInput<E>) => Promise<EndpointData<E> | SerializedAnswer>,
) {
  if (endpoint.action && endpoint.access !== 'tenant' && endpoint.access !== 'root') {
    // A role exists only inside a tenant (or for root): such an action could never be checked.
    throw new Error(`${endpoint.method} ${endpoint.path}: an action needs tenant or root access`);
  }
  const tenantSettingsOf = (request: FastifyRequest, auth: TenantAuth): Promise<TenantSettings> => {
    let loaded = settingsOf.get(request);
    if (!loaded) {
      // Read with the session when it was resolved (one query less per request); a signing-link
      // session's tenant was found separately and its settings are read now.
      loaded = 'storedSettings' in auth ? Promise.resolve(parseTenantSettings(auth.storedSettings)) : loadTenantSettings(ctx.database.db, auth.tenant.id);
      settingsOf.set(request, loaded);
    }
    return loaded;
  };
  app.withTypeProvider<ZodTypeProvider>().route({
    method: endpoint.method,
    url: endpoint.path,
    ...(endpoint.maxBodyBytes ? { bodyLimit: endpoint.maxBodyBytes } : {}),
    schema: {
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      // Multipart bodies are read as streams by the handler, never buffered for a schema.
      ...(endpoint.body && endpoint.bodyEncoding !== 'multipart' ? { body: endpoint.body } : {}),
      ...(endpoint.binaryResponse ? {} : { response: { 200: responseEnvelope(endpoint) } }),
    },
    async preValidation(request) {
      const auth = await resolveAuth({ db: ctx.database.db, access: endpoint.access, request, signingLink: endpoint.signingLink === true });
      if (!auth) return;
      authOf.set(request, auth);
      if (endpoint.action) {
        // Setting gates (restrict-workflow, the admin sub-items' switches...) are checked with the
        // tenant's settings in force, so a screen switched off is switched off for its API too.
        const settings = 'tenant' in auth ? effectivePermissionSettings(ctx.config.features, await tenantSettingsOf(request, auth)) : undefined;
        enforce(actorOf(auth), endpoint.action, settings ? { settings } : undefined);
      }
      else if (endpoint.access !== 'user' && mustChangePassword(auth.user.status)) {
        // The permissions module restricts declared actions; this covers the rest, so a session
        // due a password change reaches nothing but its own account calls.
        throw new DomainError(ResponseCode.USER_NOT_ENABLED, 'The password must be changed first.');
      }
    },
    async handler(request, reply) {
      const auth = authOf.get(request) as AuthFor<E['access']>;
      const data = await handler({
        params: request.params as EndpointParams<E>,
        query: request.query as EndpointQuery<E>,
        body: request.body as EndpointBody<E>,
        auth,
        request,
        reply,
        tenantSettings: () => {
          const current = authOf.get(request);
          if (!current || !('tenant' in current)) return Promise.reject(new Error(`${endpoint.path} has no tenant to read settings of`));
          return tenantSettingsOf(request, current);
        },
      });
      // Written when it was made, checked there (serializeAnswer) or, for the inbox's hot page, built
      // field by field from the contract's types and parsed by its route tests: sent as it is.
      if (data instanceof SerializedAnswer) return reply.type('application/json; charset=utf-8').send(data.json);
      if (endpoint.binaryResponse) {
        const body = data as BinaryBody;
        if (body.fileName) reply.header('content-disposition', attachmentDisposition(body.fileName));
        reply.type(body.contentType).header('cache-control', 'private, no-cache');
        if (body.ranged) return sendRangedFile(request, reply, { size: body.size, ...body.ranged });
        return reply.header('content-length', body.size).send(body.stream);
      }
      return { code: SUCCESS_CODE, data };
    },
  });
}

/**
 * A success answer already checked against its endpoint's response schema and written as JSON,
 * for a handler that sends the same answer again (the inbox's kept pages): the check and the
 * writing are then paid once, not at every request.
 */
export class SerializedAnswer {
  constructor(readonly json: string) {}
}

const envelopes = new WeakMap<Endpoint, ReturnType<typeof responseEnvelope>>();

/** The envelope `{ code: 1, data }` as route() would send it: parsed by the response schema, then JSON. */
export function serializeAnswer<E extends Endpoint>(endpoint: E, data: EndpointData<E>): SerializedAnswer {
  let envelope = envelopes.get(endpoint);
  if (!envelope) {
    envelope = responseEnvelope(endpoint);
    envelopes.set(endpoint, envelope);
  }
  return new SerializedAnswer(JSON.stringify(envelope.parse({ code: SUCCESS_CODE, data })));
}

/**
 * A download name for any language: a plain-ASCII fallback plus the UTF-8 name (RFC 6266 / 5987),
 * with nothing that could end the header or the quoted string.
 */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

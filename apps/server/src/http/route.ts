import {
  type Endpoint,
  type EndpointBody,
  type EndpointData,
  type EndpointParams,
  type EndpointQuery,
  responseEnvelope,
  SUCCESS_CODE,
} from '@pakt/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

export interface RouteInput<E extends Endpoint> {
  params: EndpointParams<E>;
  query: EndpointQuery<E>;
  body: EndpointBody<E>;
  request: FastifyRequest;
  reply: FastifyReply;
}

/**
 * Registers a handler for an endpoint of the domain contract. The contract's schemas validate
 * the request and the response, and the handler returns only `data`: the envelope is added here.
 */
export function route<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  handler: (input: RouteInput<E>) => Promise<EndpointData<E>>,
) {
  if (endpoint.access !== 'public') {
    // Authentication and tenant resolution arrive with identity (issue 3); refusing here keeps a
    // guarded endpoint from ever being served unguarded by mistake.
    throw new Error(`${endpoint.method} ${endpoint.path} needs ${endpoint.access} access, which is not wired yet`);
  }
  app.withTypeProvider<ZodTypeProvider>().route({
    method: endpoint.method,
    url: endpoint.path,
    schema: {
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      ...(endpoint.body ? { body: endpoint.body } : {}),
      response: { 200: responseEnvelope(endpoint) },
    },
    async handler(request, reply) {
      const data = await handler({
        params: request.params as EndpointParams<E>,
        query: request.query as EndpointQuery<E>,
        body: request.body as EndpointBody<E>,
        request,
        reply,
      });
      return { code: SUCCESS_CODE, data };
    },
  });
}

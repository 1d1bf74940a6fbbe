import {
  DomainError,
  type ErrorEnvelope,
  ResponseCode,
  type ResponseCodeEntry,
} from '@pakt/domain';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
} from 'fastify-type-provider-zod';

function send(
  reply: FastifyReply,
  status: number,
  entry: ResponseCodeEntry | number,
  message: string,
  issues?: ErrorEnvelope['issues'],
  data: ErrorEnvelope['data'] = null,
) {
  const body: ErrorEnvelope = {
    code: typeof entry === 'number' ? entry : entry.code,
    data,
    message,
    ...(issues && issues.length > 0 ? { issues } : {}),
  };
  return reply.status(status).type('application/json; charset=utf-8').send(body);
}

/**
 * The one place where failures become responses: a domain error's catalogue code picks the
 * HTTP status; malformed or invalid requests are 400 / -6; anything unexpected is 500 / -2 with
 * a generic message (the details go to the log with the request id, never to the client).
 */
export function installErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof DomainError) {
      // A refusal for now (a full queue, 503; a sign-in lock, -14) says when to come back; a full queue is load, not a fault.
      const retryAfter = error.data?.['retryAfterSeconds'] ?? error.data?.['retryAfter'];
      if (typeof retryAfter === 'number') reply.header('retry-after', String(Math.ceil(retryAfter)));
      if (error.httpStatus === 503) request.log.warn({ err: error }, 'refused for load');
      else if (error.httpStatus >= 500) request.log.error({ err: error }, 'domain fault');
      return send(reply, error.httpStatus, error.code, error.message, error.issues, error.data);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((v) => ({
        path: [error.validationContext, ...String(v.instancePath).split('/').filter(Boolean)]
          .filter(Boolean)
          .join('.'),
        message: v.message ?? 'invalid',
      }));
      return send(reply, 400, ResponseCode.INVALID_INPUT, 'The request is invalid.', issues);
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, cause: error.cause }, 'response did not match its schema');
      return send(reply, 500, ResponseCode.SYSTEM_ERROR, 'Internal server error.');
    }
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError) {
      return send(reply, 400, ResponseCode.INVALID_INPUT, 'The request body is not valid JSON.');
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own refusals: empty JSON body, unsupported media type, body too large...
      return send(reply, status, ResponseCode.INVALID_INPUT, error.message);
    }
    request.log.error({ err: error }, 'unexpected fault');
    return send(reply, 500, ResponseCode.SYSTEM_ERROR, 'Internal server error.');
  });
}

/** Unknown API routes get the envelope; GETs elsewhere fall through to the web app. */
export function apiNotFound(request: FastifyRequest, reply: FastifyReply) {
  return send(
    reply,
    404,
    ResponseCode.GENERIC_ERROR,
    `No route ${request.method} ${request.url.split('?')[0]}.`,
  );
}

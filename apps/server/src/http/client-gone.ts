import type { FastifyReply } from 'fastify';

/**
 * A signal that aborts when the client goes away before its answer is written (the connection
 * closed under a pending response), so work still waiting for its turn can be dropped.
 */
export function clientGoneSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const response = reply.raw;
  // 'close' comes after every response; only one that was never finished means the client left.
  response.once('close', () => {
    if (!response.writableFinished) controller.abort();
  });
  return controller.signal;
}

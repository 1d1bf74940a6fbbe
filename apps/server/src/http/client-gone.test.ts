import { EventEmitter } from 'node:events';
import type { FastifyReply } from 'fastify';
import { describe, expect, it } from 'vitest';
import { clientGoneSignal } from './client-gone';

/** A reply whose response closes, finished or not. */
const replyClosing = (finished: boolean) => {
  const raw = Object.assign(new EventEmitter(), { writableFinished: finished });
  return { reply: { raw } as unknown as FastifyReply, close: () => raw.emit('close') };
};

describe('clientGoneSignal', () => {
  it('aborts when the connection closes before the answer was written', () => {
    const { reply, close } = replyClosing(false);
    const signal = clientGoneSignal(reply);
    expect(signal.aborted).toBe(false);
    close();
    expect(signal.aborted).toBe(true);
  });

  it('stays quiet when the response closes after it was written', () => {
    const { reply, close } = replyClosing(true);
    const signal = clientGoneSignal(reply);
    close();
    expect(signal.aborted).toBe(false);
  });
});

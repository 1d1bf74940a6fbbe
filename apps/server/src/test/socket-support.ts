/**
 * For the notification socket tests: a `ws` client that keeps every frame the server sends, to
 * wait for the next one (or for the close) with a deadline instead of sleeping.
 */
import { SocketServerFrame } from '@pakt/domain';
import WebSocket from 'ws';

const WAIT_MS = 10_000;

export class TestSocket {
  private readonly frames: SocketServerFrame[] = [];
  private waiting: (() => void) | null = null;
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.frames.push(SocketServerFrame.parse(JSON.parse(String(data))));
      this.waiting?.();
    });
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    void this.closed.then(() => this.waiting?.());
  }

  /** Opens a socket to `url` (ws://host:port/notification). */
  static open(url: string): Promise<TestSocket> {
    const ws = new WebSocket(url);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new TestSocket(ws)));
      ws.once('error', reject);
    });
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** The next frame not yet taken; fails after the deadline, or when the socket closes first. */
  async next(): Promise<SocketServerFrame> {
    const deadline = Date.now() + WAIT_MS;
    while (this.frames.length === 0) {
      if (this.ws.readyState === WebSocket.CLOSED) throw new Error('the socket closed with no frame left');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('no frame arrived in time');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiting = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.waiting = null;
    }
    return this.frames.shift()!;
  }

  /** Frames received and not taken yet, without waiting. */
  pending(): SocketServerFrame[] {
    return [...this.frames];
  }

  /** connect, then subscribe to `topic` when given; resolves with the frames that answered. */
  async connect(accessToken: string, tenantId: string, topic?: string): Promise<SocketServerFrame[]> {
    this.send({ type: 'connect', accessToken, tenantId });
    const answers = [await this.next()];
    if (topic && answers[0]!.type === 'connected') {
      this.send({ type: 'subscribe', topic });
      answers.push(await this.next());
    }
    return answers;
  }

  async waitClosed(): Promise<{ code: number; reason: string }> {
    return Promise.race([
      this.closed,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the socket did not close in time')), WAIT_MS)),
    ]);
  }

  close(): void {
    this.ws.close();
  }
}

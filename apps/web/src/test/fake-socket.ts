import type { Notification, SocketServerFrame } from '@pakt/domain';
import type { SocketLike } from '../features/notifications/notification-socket';

/**
 * A WebSocket stand-in for the notification tests: it records what the client sends, and the
 * test plays the server (open, frames, close). `FakeSockets` hands them out in order.
 */
export class FakeSocket implements SocketLike {
  readyState = 0;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  readonly sent: unknown[] = [];
  closedWith: number | null = null;

  constructor(readonly url: string) {}

  send(data: string): void {
    this.sent.push(JSON.parse(data));
  }

  close(code = 1000): void {
    this.closedWith = code;
    this.readyState = 3;
  }

  /** The server accepts the connection. */
  open(): void {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }

  /** The server sends a frame. */
  receive(frame: SocketServerFrame): void {
    this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(frame) }));
  }

  /** The server (or the network) closes it. */
  drop(code: number): void {
    this.readyState = 3;
    this.onclose?.(new CloseEvent('close', { code }));
  }
}

export class FakeSockets {
  readonly all: FakeSocket[] = [];
  readonly create = (url: string): FakeSocket => {
    const socket = new FakeSocket(url);
    this.all.push(socket);
    return socket;
  };

  get last(): FakeSocket {
    const socket = this.all.at(-1);
    if (!socket) throw new Error('no socket was opened');
    return socket;
  }

  /** Opens the last socket and plays a server accepting its connect and subscribe. */
  accept(userId: string, tenantId: string): FakeSocket {
    const socket = this.last;
    socket.open();
    socket.receive({ type: 'connected', userId, tenantId });
    socket.receive({ type: 'subscribed', topic: `/topic/message/${userId}/${tenantId}` });
    return socket;
  }
}

export function notification(overrides: Partial<Notification> = {}): Notification {
  return {
    id: '6a0d1f36-58c4-4d47-9c1e-7f8e9a0b1c2d',
    notificationType: 'signRequest',
    epak: { id: '1f2e3d4c-5b6a-4978-8a9b-0c1d2e3f4a5b', subject: 'Lease of flat 3B' },
    title: 'Please sign: Lease of flat 3B',
    body: 'Owen Rao asks you to sign "Lease of flat 3B".',
    createdOn: '2025-01-15T10:30:00.000Z',
    isRead: false,
    ...overrides,
  };
}

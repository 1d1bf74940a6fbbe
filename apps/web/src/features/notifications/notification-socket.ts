import { type Notification, NOTIFICATION_SOCKET_PATH, notificationTopic, SOCKET_CLOSE_CODES, SocketServerFrame } from '@pakt/domain';

/**
 * The notification WebSocket of the signed-in person (spec §7: {base}/notification, topic
 * /topic/message/{userId}/{tenantId}). It connects with the access token, subscribes to the
 * person's own topic, hands each notification on, and keeps itself alive:
 * - a lost connection is opened again after 1 s, 2 s, 4 s… up to 30 s (with some jitter, so a
 *   restarted server is not met by every browser at once);
 * - a refused token (closed with SOCKET_CLOSE_CODES.authFailed) is refreshed first, through the
 *   API client's own refresh, and the socket opened again only if that worked;
 * - a token renewed by the API client is sent on the open socket (renew()), so the server's
 *   check of the session keeps passing;
 * - a ping every PING_INTERVAL_MS keeps proxies from closing a quiet connection.
 */

export const RECONNECT_DELAY_MS = { first: 1_000, max: 30_000 } as const;
export const PING_INTERVAL_MS = 25_000;

/** Spec §8: logged only, never shown. */
export const SOCKET_LOG = { noBaseUrl: 'BASE_URL not found', unreachable: 'Unable to establish WebSocket connection' } as const;

/** What the socket needs of the session: read afresh at each connect. */
export interface SocketSession {
  readonly accessToken: string;
  readonly userId: string;
  readonly tenantId: string;
}

/** The part of the browser's WebSocket used here, so tests can hand in a fake. */
export interface SocketLike {
  readonly readyState: number;
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export type RefreshOutcome = 'refreshed' | 'failed' | 'unreachable';

export interface NotificationSocketOptions {
  /** ws(s)://host/notification; null when no base address is known (then nothing connects). */
  readonly url: string | null;
  readonly session: () => SocketSession | null;
  readonly onNotification: (notification: Notification) => void;
  /** Subscribed (again): whatever arrived while disconnected is worth fetching now. */
  readonly onSubscribed?: () => void;
  /**
   * Renews the session because the server refused `staleAccessToken`: when the session already
   * holds a newer token (the page's calls renewed it meanwhile) that one is simply tried.
   */
  readonly refreshSession: (staleAccessToken?: string) => Promise<RefreshOutcome>;
  readonly createSocket?: (url: string) => SocketLike;
  readonly log?: (message: string) => void;
  readonly random?: () => number;
}

const OPEN = 1;

/** The socket address beside the page (the API is served from the same origin). */
export function notificationSocketUrl(location: Pick<Location, 'protocol' | 'host'> | undefined): string | null {
  if (!location || !location.host || (location.protocol !== 'http:' && location.protocol !== 'https:')) return null;
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${NOTIFICATION_SOCKET_PATH}`;
}

export class NotificationSocket {
  private socket: SocketLike | null = null;
  /** Who the open socket speaks for: a different person or tenant needs a socket of its own. */
  private connectedAs: SocketSession | null = null;
  private attempts = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private pingTimer: ReturnType<typeof setInterval> | null = null;
  private stopped = true;
  private subscribed = false;
  /** A refused token was refreshed already and refused again: back off instead of looping. */
  private refusedAfterRefresh = false;

  constructor(private readonly options: NotificationSocketOptions) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    if (!this.options.url) {
      this.log(SOCKET_LOG.noBaseUrl);
      return;
    }
    this.open();
  }

  stop(): void {
    this.stopped = true;
    this.clearTimers();
    const socket = this.socket;
    this.socket = null;
    this.connectedAs = null;
    if (socket) {
      socket.onclose = null;
      socket.close(1000, 'signed out');
    }
  }

  /**
   * The session changed (a refreshed token, another tenant, signed out). The same person in the
   * same tenant: the new token is sent on the open socket. Anyone else: a socket of their own.
   */
  renew(): void {
    if (this.stopped) return;
    const session = this.options.session();
    const socket = this.socket;
    if (!session) {
      this.drop();
      return;
    }
    if (!socket) {
      // Waiting for a session (or for a retry): a new token is worth trying now.
      if (!this.retryTimer) this.open();
      return;
    }
    const current = this.connectedAs;
    if (current && (current.userId !== session.userId || current.tenantId !== session.tenantId)) {
      this.drop();
      this.open();
      return;
    }
    if (current && current.accessToken !== session.accessToken && socket.readyState === OPEN) {
      this.connectedAs = session;
      this.sendFrame({ type: 'connect', accessToken: session.accessToken, tenantId: session.tenantId });
    }
  }

  private open(): void {
    if (this.stopped || this.socket || !this.options.url) return;
    const session = this.options.session();
    if (!session) return;
    let socket: SocketLike;
    try {
      socket = (this.options.createSocket ?? ((url) => new WebSocket(url)))(this.options.url);
    } catch {
      this.log(SOCKET_LOG.unreachable);
      this.scheduleRetry();
      return;
    }
    this.socket = socket;
    this.connectedAs = session;
    socket.onopen = () => {
      this.sendFrame({ type: 'connect', accessToken: session.accessToken, tenantId: session.tenantId });
      this.pingTimer = setInterval(() => this.sendFrame({ type: 'ping' }), PING_INTERVAL_MS);
    };
    socket.onmessage = (event) => this.receive(session, event);
    socket.onerror = () => this.log(SOCKET_LOG.unreachable);
    socket.onclose = (event) => this.closed(socket, event.code);
  }

  private receive(session: SocketSession, event: MessageEvent): void {
    let frame: SocketServerFrame;
    try {
      frame = SocketServerFrame.parse(JSON.parse(String(event.data)));
    } catch {
      return;
    }
    switch (frame.type) {
      case 'connected':
        // Sent again after a renewed token: the subscription is still there.
        if (!this.subscribed) this.sendFrame({ type: 'subscribe', topic: notificationTopic(session.userId, session.tenantId) });
        return;
      case 'subscribed':
        this.subscribed = true;
        this.attempts = 0;
        this.refusedAfterRefresh = false;
        this.options.onSubscribed?.();
        return;
      case 'message':
        this.options.onNotification(frame.notification);
        return;
      case 'error':
      case 'pong':
        // An error frame comes before the close that says what to do next.
        return;
    }
  }

  private closed(socket: SocketLike, code: number): void {
    if (this.socket !== socket) return;
    const refusedToken = this.connectedAs?.accessToken;
    this.socket = null;
    this.subscribed = false;
    this.clearTimers();
    if (this.stopped) return;
    if (code === SOCKET_CLOSE_CODES.authFailed) {
      if (this.refusedAfterRefresh) {
        this.scheduleRetry();
        return;
      }
      this.options.refreshSession(refusedToken).then(
        (outcome) => {
          if (this.stopped) return;
          // Refreshed: try at once with the new token. Failed: the session is over; the app signs
          // the person out and stop() follows. Unreachable: like any lost connection.
          if (outcome === 'refreshed') {
            this.refusedAfterRefresh = true;
            this.open();
          } else if (outcome === 'unreachable') this.scheduleRetry();
        },
        () => this.scheduleRetry(),
      );
      return;
    }
    if (code === SOCKET_CLOSE_CODES.tooManySockets) {
      this.attempts = Math.max(this.attempts, 16);
    }
    this.scheduleRetry();
  }

  /** The delay before attempt n (from 0): doubling from the first, at most the max, less up to a fifth at random. */
  static delayOf(attempt: number, random: number): number {
    const base = Math.min(RECONNECT_DELAY_MS.first * 2 ** Math.min(attempt, 16), RECONNECT_DELAY_MS.max);
    return Math.round(base * (1 - 0.2 * random));
  }

  private scheduleRetry(): void {
    if (this.stopped || this.retryTimer) return;
    const delay = NotificationSocket.delayOf(this.attempts, (this.options.random ?? Math.random)());
    this.attempts++;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.open();
    }, delay);
  }

  /** Closes the socket without a retry (signed out); a later renew() opens one again. */
  private drop(): void {
    this.clearTimers();
    const socket = this.socket;
    this.socket = null;
    this.subscribed = false;
    this.connectedAs = null;
    if (socket) {
      socket.onclose = null;
      socket.close(1000, 'session changed');
    }
  }

  private clearTimers(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.retryTimer = null;
    this.pingTimer = null;
  }

  private sendFrame(frame: object): void {
    if (this.socket?.readyState === OPEN) this.socket.send(JSON.stringify(frame));
  }

  private log(message: string): void {
    (this.options.log ?? ((text: string) => console.error(text)))(message);
  }
}

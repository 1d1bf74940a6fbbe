import {
  DomainError,
  type Notification,
  notificationTopic,
  ResponseCode,
  SOCKET_CLOSE_CODES,
  SocketClientFrame,
  type SocketServerFrame,
} from '@pakt/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import type { Database } from '../../platform/db/database';
import { NOTIFICATION_CHANNEL, NotificationSignal } from './record';
import type { SocketIdentity } from './socket-auth';
import { loadNotification, notificationsSince } from './store';

/**
 * The notification hub of one server process (spec §7 WebSocket /notification). Sockets
 * authenticate with a connect frame, subscribe to their own topic only, and get each
 * notification of theirs as it is committed. Notifications reach every process through
 * PostgreSQL LISTEN/NOTIFY (record.ts sends, this listens), so a socket on one process hears of
 * a change made through another; the process LISTENs only once someone subscribes.
 *
 * A socket's session is checked again before each delivery and every `revalidateMs`: once it
 * is revoked (logout), expired or rotated away, or the membership is gone, the socket is told
 * and closed (SOCKET_CLOSE_CODES.authFailed) and the client connects again with a fresh token.
 * A client renews the token on an open socket by sending connect again (same user and tenant).
 */

export interface HubLimits {
  /** Open, connected sockets one user may have in one process (tabs, devices). */
  readonly socketsPerUser: number;
  /** How long a new socket may take to send its connect frame. */
  readonly connectTimeoutMs: number;
  /** How often every socket's session is checked, deliveries or not. */
  readonly revalidateMs: number;
}

export const DEFAULT_HUB_LIMITS: HubLimits = { socketsPerUser: 16, connectTimeoutMs: 10_000, revalidateMs: 60_000 };

/** The largest frame a client may send (a connect frame with the longest token fits); ws closes the socket (1009) above it. */
export const MAX_CLIENT_FRAME_BYTES = 8 * 1024;

/** How many delivered ids a socket remembers, so a catch-up after a lost LISTEN sends nothing twice. */
const REMEMBERED_DELIVERIES = 200;

/** A lost LISTEN catches up from a little before it was noticed: the loss is seen late, not early. */
const CATCH_UP_MARGIN_MS = 5_000;

interface Client {
  readonly socket: WebSocket;
  /** The peer's address (request.ip of the upgrade): a session bound to another refuses it (-26). */
  readonly ip: string | undefined;
  identity: SocketIdentity | null;
  /** The token of the connect frame accepted, to check the session again. */
  credentials: { accessToken: string; tenantId: string } | null;
  readonly topics: Set<string>;
  /** Frames are handled one at a time, in order: a subscribe waits for the connect before it. */
  work: Promise<void>;
  verifying: Promise<boolean> | null;
  connectTimer: NodeJS.Timeout | null;
  readonly delivered: Set<string>;
  /** When it subscribed (this process's clock): a catch-up brings nothing older. */
  subscribedAt: Date | null;
  closed: boolean;
}

export interface NotificationHubOptions {
  readonly database: Pick<Database, 'db' | 'listen'>;
  /** Judges a connect frame (socket-auth.ts); throws a DomainError to refuse. */
  readonly authenticate: (frame: { accessToken: string; tenantId: string }, peer: { ip: string | undefined }) => Promise<SocketIdentity>;
  readonly log: FastifyBaseLogger;
  readonly limits?: Partial<HubLimits>;
}

const refusal = (error: unknown): { code: number; message: string } =>
  error instanceof DomainError ? { code: error.code, message: error.message } : { code: ResponseCode.SYSTEM_ERROR.code, message: 'The connection could not be checked.' };

export class NotificationHub {
  private readonly limits: HubLimits;
  private readonly clients = new Set<Client>();
  private readonly byTopic = new Map<string, Set<Client>>();
  private listening: Promise<() => Promise<void>> | null = null;
  private deliveries: Promise<void> = Promise.resolve();
  private readonly sweep: NodeJS.Timeout;
  private closed = false;

  constructor(private readonly options: NotificationHubOptions) {
    this.limits = { ...DEFAULT_HUB_LIMITS, ...options.limits };
    this.sweep = setInterval(() => this.revalidateAll(), this.limits.revalidateMs);
    this.sweep.unref();
  }

  /** Open sockets, connected or not (for tests and logs). */
  get size(): number {
    return this.clients.size;
  }

  /** Takes a new socket: it has `connectTimeoutMs` to send its connect frame. */
  accept(socket: WebSocket, peer: { ip?: string | undefined } = {}): void {
    if (this.closed) {
      socket.close(1001, 'shutting down');
      return;
    }
    const client: Client = {
      socket,
      ip: peer.ip,
      identity: null,
      credentials: null,
      topics: new Set(),
      work: Promise.resolve(),
      verifying: null,
      connectTimer: null,
      delivered: new Set(),
      subscribedAt: null,
      closed: false,
    };
    this.clients.add(client);
    client.connectTimer = setTimeout(() => {
      if (client.identity) return;
      this.send(client, { type: 'error', code: ResponseCode.INVALID_ACCESS_TOKEN.code, message: 'No connect frame was sent in time.' });
      this.drop(client, SOCKET_CLOSE_CODES.connectTimeout, 'connect timeout');
    }, this.limits.connectTimeoutMs);
    socket.on('message', (data: RawData, isBinary: boolean) => {
      client.work = client.work.then(() => this.handle(client, data, isBinary)).catch((error: unknown) => {
        this.options.log.error({ err: error }, 'notification socket: a frame failed');
      });
    });
    socket.on('close', () => this.forget(client));
    socket.on('error', () => this.forget(client));
  }

  private async handle(client: Client, data: RawData, isBinary: boolean): Promise<void> {
    if (client.closed) return;
    let frame: SocketClientFrame;
    try {
      if (isBinary) throw new Error('binary');
      const parsed = SocketClientFrame.safeParse(JSON.parse(rawText(data)));
      if (!parsed.success) throw new Error(parsed.error.issues.map((issue) => `${issue.path.join('.') || 'frame'}: ${issue.message}`).join('; '));
      frame = parsed.data;
    } catch (error) {
      const detail = error instanceof SyntaxError || (error as Error).message === 'binary' ? 'a JSON text frame' : (error as Error).message;
      this.send(client, { type: 'error', code: ResponseCode.INVALID_INPUT.code, message: `Not a frame of the notification protocol (expected ${detail}).` });
      return;
    }
    if (frame.type === 'connect') return this.connect(client, frame);
    if (!client.identity) {
      this.send(client, { type: 'error', code: ResponseCode.INVALID_ACCESS_TOKEN.code, message: 'Send a connect frame with your access token first.' });
      return;
    }
    switch (frame.type) {
      case 'ping':
        this.send(client, { type: 'pong' });
        return;
      case 'subscribe':
        return this.subscribe(client, frame.topic);
      case 'unsubscribe':
        this.unsubscribe(client, frame.topic);
        return;
    }
  }

  private async connect(client: Client, frame: { accessToken: string; tenantId: string }): Promise<void> {
    let identity: SocketIdentity;
    try {
      identity = await this.options.authenticate(frame, { ip: client.ip });
    } catch (error) {
      this.send(client, { type: 'error', ...refusal(error) });
      this.drop(client, SOCKET_CLOSE_CODES.authFailed, 'not authenticated');
      return;
    }
    if (client.identity) {
      // A renewed token: it must be the same person in the same tenant, or the socket would
      // change hands with its subscriptions.
      if (client.identity.userId !== identity.userId || client.identity.tenantId !== identity.tenantId) {
        this.send(client, { type: 'error', code: ResponseCode.NOT_AUTHORIZED.code, message: 'A connected socket stays with its user and tenant: open a new one.' });
        this.drop(client, SOCKET_CLOSE_CODES.authFailed, 'identity changed');
        return;
      }
    } else {
      const theirs = [...this.clients].filter((other) => other.identity?.userId === identity.userId && !other.closed).length;
      if (theirs >= this.limits.socketsPerUser) {
        this.send(client, {
          type: 'error',
          code: ResponseCode.GENERIC_ERROR.code,
          message: `You have ${theirs} notification connections open already, the most allowed: close a tab or window first.`,
        });
        this.drop(client, SOCKET_CLOSE_CODES.tooManySockets, 'too many sockets');
        return;
      }
    }
    client.identity = identity;
    client.credentials = { accessToken: frame.accessToken, tenantId: frame.tenantId };
    if (client.connectTimer) clearTimeout(client.connectTimer);
    client.connectTimer = null;
    this.send(client, { type: 'connected', userId: identity.userId, tenantId: identity.tenantId });
  }

  private async subscribe(client: Client, topic: string): Promise<void> {
    const identity = client.identity!;
    if (topic !== notificationTopic(identity.userId, identity.tenantId)) {
      // Nothing is subscribed and the socket stays as it was; the topic named is not echoed.
      this.send(client, { type: 'error', code: ResponseCode.NOT_AUTHORIZED.code, message: 'Only your own topic can be subscribed to.' });
      return;
    }
    try {
      await this.ensureListening();
    } catch (error) {
      this.options.log.error({ err: error }, 'notification hub: cannot LISTEN');
      this.send(client, { type: 'error', code: ResponseCode.SYSTEM_ERROR.code, message: 'Notifications are not available right now; try again shortly.' });
      return;
    }
    if (client.closed) return;
    client.subscribedAt ??= new Date();
    client.topics.add(topic);
    let set = this.byTopic.get(topic);
    if (!set) this.byTopic.set(topic, (set = new Set()));
    set.add(client);
    this.send(client, { type: 'subscribed', topic });
  }

  private unsubscribe(client: Client, topic: string): void {
    if (!client.topics.delete(topic)) return;
    const set = this.byTopic.get(topic);
    set?.delete(client);
    if (set?.size === 0) this.byTopic.delete(topic);
  }

  private ensureListening(): Promise<() => Promise<void>> {
    this.listening ??= this.options.database
      .listen(NOTIFICATION_CHANNEL, (payload) => this.enqueue(payload), { onReconnect: (lostAt) => this.catchUp(lostAt) })
      .catch((error: unknown) => {
        // The next subscribe tries again.
        this.listening = null;
        throw error;
      });
    return this.listening;
  }

  /** Signals are delivered one after another, in the order they were committed. */
  private enqueue(payload: string): void {
    this.deliveries = this.deliveries.then(() => this.deliver(payload)).catch((error: unknown) => {
      this.options.log.error({ err: error }, 'notification hub: a delivery failed');
    });
  }

  private async deliver(payload: string): Promise<void> {
    let signal: NotificationSignal;
    try {
      signal = NotificationSignal.parse(JSON.parse(payload));
    } catch {
      this.options.log.warn({ payload: payload.slice(0, 200) }, 'notification hub: an unreadable signal');
      return;
    }
    const topic = notificationTopic(signal.userId, signal.tenantId);
    const listeners = this.byTopic.get(topic);
    if (!listeners || listeners.size === 0) return;
    const notification = await loadNotification(this.options.database.db, signal, signal.id);
    if (!notification) return;
    await Promise.all([...listeners].map((client) => this.sendNotification(client, topic, notification)));
  }

  private async sendNotification(client: Client, topic: string, notification: Notification): Promise<void> {
    if (client.delivered.has(notification.id)) return;
    if (!(await this.verify(client)) || !client.topics.has(topic)) return;
    client.delivered.add(notification.id);
    if (client.delivered.size > REMEMBERED_DELIVERIES) client.delivered.delete(client.delivered.values().next().value!);
    this.send(client, { type: 'message', topic, notification });
  }

  /**
   * After a lost LISTEN: what each subscribed socket missed meanwhile, from the table. Nothing
   * from before a socket subscribed (it was not listening then; the app reloads its lists when
   * it connects), and nothing it was sent already.
   */
  private catchUp(lostAt: Date): void {
    const lostFrom = lostAt.getTime() - CATCH_UP_MARGIN_MS;
    const sinceFor = (client: Client) => Math.max(lostFrom, client.subscribedAt?.getTime() ?? Date.now());
    for (const [topic, listeners] of this.byTopic) {
      const clients = [...listeners];
      const owner = clients[0]?.identity;
      if (!owner) continue;
      this.deliveries = this.deliveries
        .then(async () => {
          const since = new Date(Math.min(...clients.map(sinceFor)));
          for (const notification of await notificationsSince(this.options.database.db, owner, since)) {
            const at = Date.parse(notification.createdOn);
            await Promise.all(clients.filter((client) => at >= sinceFor(client)).map((client) => this.sendNotification(client, topic, notification)));
          }
        })
        .catch((error: unknown) => this.options.log.error({ err: error }, 'notification hub: catching up failed'));
    }
  }

  /** Is the socket's session still good? If not, the socket is told why and closed. */
  private verify(client: Client): Promise<boolean> {
    if (client.closed || !client.credentials) return Promise.resolve(false);
    const credentials = client.credentials;
    client.verifying ??= this.options
      .authenticate(credentials, { ip: client.ip })
      .then(
        () => true,
        (error: unknown) => {
          // A connect frame with a renewed token may have replaced these meanwhile: judge that one.
          if (client.credentials !== credentials) return false;
          this.send(client, { type: 'error', ...refusal(error) });
          this.drop(client, SOCKET_CLOSE_CODES.authFailed, 'session ended');
          return false;
        },
      )
      .finally(() => {
        client.verifying = null;
      });
    return client.verifying;
  }

  private revalidateAll(): void {
    for (const client of this.clients) if (client.identity) void this.verify(client);
  }

  private send(client: Client, frame: SocketServerFrame): void {
    if (client.closed || client.socket.readyState !== client.socket.OPEN) return;
    client.socket.send(JSON.stringify(frame));
  }

  private drop(client: Client, code: number, reason: string): void {
    this.forget(client);
    if (client.socket.readyState === client.socket.OPEN || client.socket.readyState === client.socket.CONNECTING) client.socket.close(code, reason);
  }

  private forget(client: Client): void {
    if (client.closed) return;
    client.closed = true;
    if (client.connectTimer) clearTimeout(client.connectTimer);
    for (const topic of [...client.topics]) this.unsubscribe(client, topic);
    this.clients.delete(client);
  }

  /** Closes every socket (1001, going away) and stops listening. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweep);
    for (const client of [...this.clients]) this.drop(client, 1001, 'server shutting down');
    const listening = this.listening;
    this.listening = null;
    const stop = await listening?.catch(() => null);
    await stop?.().catch(() => {});
    await this.deliveries;
  }
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

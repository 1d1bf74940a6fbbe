import { SOCKET_CLOSE_CODES } from '@pakt/domain';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeSockets, notification } from '../../test/fake-socket';
import { NotificationSocket, notificationSocketUrl, PING_INTERVAL_MS, type RefreshOutcome, type SocketSession, SOCKET_LOG } from './notification-socket';

const USER = '5d1c9a7e-2b4f-4e6a-8c3d-0f1e2a3b4c5d';
const TENANT = '0b6f1c3e-8d2a-4c5b-9e7f-1a2b3c4d5e6f';
const OTHER_TENANT = '7c9d2e4f-1a3b-4c5d-8e6f-9a0b1c2d3e4f';
const URL = 'wss://pakt.example/notification';

function setup(options: { url?: string | null; refresh?: RefreshOutcome } = {}) {
  const sockets = new FakeSockets();
  let session: SocketSession | null = { accessToken: 'access-1', userId: USER, tenantId: TENANT };
  const received: unknown[] = [];
  const logs: string[] = [];
  const onSubscribed = vi.fn();
  const refreshSession = vi.fn(async () => options.refresh ?? 'refreshed');
  const socket = new NotificationSocket({
    url: options.url === undefined ? URL : options.url,
    session: () => session,
    onNotification: (n) => received.push(n),
    onSubscribed,
    refreshSession,
    createSocket: sockets.create,
    log: (message) => logs.push(message),
    // No jitter: the delays are exactly 1 s, 2 s, 4 s…
    random: () => 0,
  });
  return {
    sockets,
    socket,
    received,
    logs,
    onSubscribed,
    refreshSession,
    setSession: (next: SocketSession | null) => {
      session = next;
      socket.renew();
    },
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('notificationSocketUrl', () => {
  it('is beside the page, ws or wss as the page is served', () => {
    expect(notificationSocketUrl({ protocol: 'https:', host: 'pakt.example' })).toBe('wss://pakt.example/notification');
    expect(notificationSocketUrl({ protocol: 'http:', host: 'localhost:3000' })).toBe('ws://localhost:3000/notification');
    expect(notificationSocketUrl({ protocol: 'file:', host: '' })).toBeNull();
    expect(notificationSocketUrl(undefined)).toBeNull();
  });
});

describe('the notification socket', () => {
  it('connects with the token, subscribes to its own topic, and hands on each notification', () => {
    const { sockets, socket, received, onSubscribed } = setup();
    socket.start();
    const ws = sockets.last;
    expect(ws.url).toBe(URL);
    ws.open();
    expect(ws.sent).toEqual([{ type: 'connect', accessToken: 'access-1', tenantId: TENANT }]);
    ws.receive({ type: 'connected', userId: USER, tenantId: TENANT });
    expect(ws.sent.at(-1)).toEqual({ type: 'subscribe', topic: `/topic/message/${USER}/${TENANT}` });
    ws.receive({ type: 'subscribed', topic: `/topic/message/${USER}/${TENANT}` });
    expect(onSubscribed).toHaveBeenCalledTimes(1);
    ws.receive({ type: 'message', topic: `/topic/message/${USER}/${TENANT}`, notification: notification() });
    expect(received).toEqual([notification()]);
    // Frames that are not of the protocol are ignored.
    ws.onmessage?.(new MessageEvent('message', { data: '{"type":"nonsense"}' }));
    expect(received).toHaveLength(1);
  });

  it('pings while open, so quiet connections are not cut', () => {
    const { sockets, socket } = setup();
    socket.start();
    const ws = sockets.accept(USER, TENANT);
    const before = ws.sent.length;
    vi.advanceTimersByTime(PING_INTERVAL_MS);
    expect(ws.sent.slice(before)).toEqual([{ type: 'ping' }]);
  });

  it('connects again after a lost connection, waiting longer each time, and starts over once subscribed', () => {
    const { sockets, socket, onSubscribed } = setup();
    socket.start();
    sockets.accept(USER, TENANT).drop(1006);
    expect(sockets.all).toHaveLength(1);
    vi.advanceTimersByTime(999);
    expect(sockets.all).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets.all).toHaveLength(2);
    sockets.last.drop(1006);
    vi.advanceTimersByTime(1999);
    expect(sockets.all).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(sockets.all).toHaveLength(3);
    sockets.last.drop(1006);
    vi.advanceTimersByTime(4000);
    expect(sockets.all).toHaveLength(4);
    sockets.accept(USER, TENANT);
    expect(onSubscribed).toHaveBeenCalledTimes(2);
    sockets.last.drop(1006);
    vi.advanceTimersByTime(1000);
    expect(sockets.all).toHaveLength(5);
  });

  it('never waits more than 30 s between attempts', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 40].map((n) => NotificationSocket.delayOf(n, 0))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
    // Jitter takes up to a fifth off, never adds.
    expect(NotificationSocket.delayOf(0, 1)).toBe(800);
  });

  it('refreshes a refused token and connects again with the new one', async () => {
    const { sockets, socket, refreshSession, setSession } = setup();
    socket.start();
    sockets.last.open();
    refreshSession.mockImplementationOnce(async () => {
      setSession({ accessToken: 'access-2', userId: USER, tenantId: TENANT });
      return 'refreshed';
    });
    sockets.last.receive({ type: 'error', code: -27, message: 'The access token has expired.' });
    sockets.last.drop(SOCKET_CLOSE_CODES.authFailed);
    await vi.waitFor(() => expect(refreshSession).toHaveBeenCalledTimes(1));
    // It names the token refused, so a session renewed meanwhile is not renewed twice.
    expect(refreshSession).toHaveBeenCalledWith('access-1');
    await vi.waitFor(() => expect(sockets.all).toHaveLength(2));
    sockets.last.open();
    expect(sockets.last.sent[0]).toEqual({ type: 'connect', accessToken: 'access-2', tenantId: TENANT });
  });

  it('stops trying when the refresh fails: the session is over', async () => {
    const { sockets, socket, refreshSession } = setup({ refresh: 'failed' });
    socket.start();
    sockets.last.open();
    sockets.last.drop(SOCKET_CLOSE_CODES.authFailed);
    await vi.waitFor(() => expect(refreshSession).toHaveBeenCalled());
    vi.advanceTimersByTime(120_000);
    expect(sockets.all).toHaveLength(1);
  });

  it('waits the longest after too many sockets', () => {
    const { sockets, socket } = setup();
    socket.start();
    sockets.last.open();
    sockets.last.drop(SOCKET_CLOSE_CODES.tooManySockets);
    vi.advanceTimersByTime(29_999);
    expect(sockets.all).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets.all).toHaveLength(2);
  });

  it('sends a renewed token on the open socket; another tenant gets a socket of its own; signing out closes it', () => {
    const { sockets, socket, setSession } = setup();
    socket.start();
    const first = sockets.accept(USER, TENANT);
    setSession({ accessToken: 'access-2', userId: USER, tenantId: TENANT });
    expect(first.sent.at(-1)).toEqual({ type: 'connect', accessToken: 'access-2', tenantId: TENANT });
    // The server answers connected again; the subscription stands, nothing is sent twice.
    const count = first.sent.length;
    first.receive({ type: 'connected', userId: USER, tenantId: TENANT });
    expect(first.sent).toHaveLength(count);

    setSession({ accessToken: 'access-2', userId: USER, tenantId: OTHER_TENANT });
    expect(first.closedWith).toBe(1000);
    expect(sockets.all).toHaveLength(2);
    sockets.last.open();
    expect(sockets.last.sent[0]).toEqual({ type: 'connect', accessToken: 'access-2', tenantId: OTHER_TENANT });

    setSession(null);
    expect(sockets.last.closedWith).toBe(1000);
    vi.advanceTimersByTime(60_000);
    expect(sockets.all).toHaveLength(2);
    setSession({ accessToken: 'access-3', userId: USER, tenantId: TENANT });
    expect(sockets.all).toHaveLength(3);
  });

  it('closes for good on stop, and without a base address connects to nothing', () => {
    const { sockets, socket } = setup();
    socket.start();
    const ws = sockets.accept(USER, TENANT);
    socket.stop();
    expect(ws.closedWith).toBe(1000);
    vi.advanceTimersByTime(60_000);
    expect(sockets.all).toHaveLength(1);

    const bare = setup({ url: null });
    bare.socket.start();
    expect(bare.sockets.all).toEqual([]);
    expect(bare.logs).toEqual([SOCKET_LOG.noBaseUrl]);
  });
});

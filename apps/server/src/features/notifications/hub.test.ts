import {
  createEpak,
  type Endpoint,
  type EndpointInput,
  EpakDetail,
  exchangeEasyToken,
  listNotifications,
  listWorkflowStates,
  logout,
  notificationTopic,
  refreshToken,
  SOCKET_CLOSE_CODES,
  startEpak,
  type TokenGrant,
} from '@pakt/domain';
import { eq } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox, tenantSettings } from '../../platform/db/schema';
import { installErrorHandling } from '../../http/error-handler';
import { registerNotificationRoutes } from './notification-routes';
import { GOOD_PASSWORD, makeMember } from '../../test/factories';
import { bearer, signIn } from '../../test/sign-in';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { MAX_CLIENT_FRAME_BYTES } from './hub';
import { recordNotifications } from './record';
import { TestSocket } from '../../test/socket-support';
import { placeSignatureFields, uploadedDocument } from '../../test/app-factories';
import { inject } from '../../test/inject';

/**
 * The WebSocket at /notification on a real listening server, with the `ws` client: connect,
 * subscribe to one's own topic only, receive what is committed (and nothing rolled back), and
 * the refusals: a bad token, another user's or tenant's topic, a signing-link session, a
 * session that ended, too many sockets, frames too large or not of the protocol.
 */

let t: TestApp;
let socketUrl = '';
const sockets: TestSocket[] = [];
beforeAll(async () => {
  t = await buildTestApp();
  const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  socketUrl = `${address.replace('http', 'ws')}/notification`;
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await t.close();
});

async function open(url = socketUrl): Promise<TestSocket> {
  const socket = await TestSocket.open(url);
  sockets.push(socket);
  return socket;
}

type Person = Awaited<ReturnType<typeof person>>;

async function person(role: 'signer' | 'custodian' | 'super_admin', tenant?: { id: string }) {
  const made = await makeMember(t.database.db, { role, ...(tenant ? { tenant } : {}) });
  const grant: TokenGrant = await signIn(t.app, made.user.email, GOOD_PASSWORD);
  return { ...made, grant, topic: notificationTopic(made.user.id, made.tenant.id), headers: { ...bearer(grant), 'x-tenant-id': made.tenant.id } };
}

async function ok<E extends Endpoint>(endpoint: E, headers: Record<string, string>, input: EndpointInput<E> = {} as EndpointInput<E>) {
  const res = await inject(t.app, endpoint, { ...input, headers });
  expect(res.statusCode, `${endpoint.method} ${endpoint.path}: ${res.body}`).toBe(200);
  return res.data;
}

/** Composes and starts an ePak of one SIGN step through the API. */
async function sendEpak(owner: Person, recipients: string[], subject = 'Lease of flat 3B') {
  const doc = await uploadedDocument(t, { owner });
  const states = (await ok(listWorkflowStates, owner.headers)).states;
  const draft = EpakDetail.parse(
    await ok(createEpak, owner.headers, {
      body: {
        subject,
        documentIds: [doc.documentId],
        steps: [{ workflowStateId: states.find((s) => s.type === 'SIGN')!.workflowStateId, recipients: recipients.map((email) => ({ email })) }],
      },
    }),
  );
  await placeSignatureFields(t, { owner, epak: draft });
  return EpakDetail.parse(await ok(startEpak, owner.headers, { params: { ePakId: draft.ePakId } }));
}

/** Writes one notification for `userId` about `epakId` in a transaction of its own. */
function notify(epakId: string, userId: string, options: { rollBack?: boolean } = {}) {
  return t.database.db
    .transaction(async (tx) => {
      await recordNotifications(tx, { epakId, direct: [{ type: 'epakDeleted', userIds: [userId] }] });
      if (options.rollBack) throw new Error('rolled back');
    })
    .catch((error: unknown) => {
      if (!options.rollBack) throw error;
    });
}

describe('the notification socket', () => {
  it('connects, subscribes to its own topic and receives a notification caused through the API', async () => {
    const owner = await person('custodian');
    const signer = await person('signer', owner.tenant);
    const socket = await open();
    expect(await socket.connect(signer.grant.accessToken, signer.tenant.id, signer.topic)).toEqual([
      { type: 'connected', userId: signer.user.id, tenantId: signer.tenant.id },
      { type: 'subscribed', topic: signer.topic },
    ]);
    socket.send({ type: 'ping' });
    expect(await socket.next()).toEqual({ type: 'pong' });

    const epak = await sendEpak(owner, [signer.user.email]);
    const frame = await socket.next();
    expect(frame).toMatchObject({
      type: 'message',
      topic: signer.topic,
      notification: { notificationType: 'signRequest', epak: { id: epak.ePakId, subject: 'Lease of flat 3B' }, title: 'Please sign: Lease of flat 3B', isRead: false },
    });
    // What the list answers is the same notification.
    const listed = await ok(listNotifications, signer.headers);
    expect(listed.items[0]).toEqual(frame.type === 'message' ? frame.notification : null);
  });

  it('delivers what commits, never what is rolled back, in order', async () => {
    const owner = await person('custodian');
    const signer = await person('signer', owner.tenant);
    const epak = await sendEpak(owner, [signer.user.email]);
    const socket = await open();
    await socket.connect(signer.grant.accessToken, signer.tenant.id, signer.topic);
    await notify(epak.ePakId, signer.user.id, { rollBack: true });
    await notify(epak.ePakId, signer.user.id);
    await notify(epak.ePakId, signer.user.id);
    const first = await socket.next();
    const second = await socket.next();
    expect([first.type, second.type]).toEqual(['message', 'message']);
    const ids = [first, second].map((frame) => (frame.type === 'message' ? frame.notification.id : null));
    const listed = await ok(listNotifications, signer.headers);
    // Newest first there: the two committed, after the sign request; nothing of the rolled-back one.
    expect(listed.items.map((n: { id: string }) => n.id)).toEqual([...ids.reverse(), expect.any(String)]);
    expect(socket.pending()).toEqual([]);
  });

  it("refuses another user's topic and another tenant's, subscribing to nothing; its own still works", async () => {
    const owner = await person('custodian');
    const signer = await person('signer', owner.tenant);
    const colleague = await person('signer', owner.tenant);
    const stranger = await person('signer');
    const socket = await open();
    await socket.connect(signer.grant.accessToken, signer.tenant.id);
    for (const topic of [
      colleague.topic,
      notificationTopic(signer.user.id, stranger.tenant.id),
      stranger.topic,
      `${signer.topic}/`,
      '/topic/message/#',
    ]) {
      socket.send({ type: 'subscribe', topic });
      expect(await socket.next()).toEqual({ type: 'error', code: -11, message: 'Only your own topic can be subscribed to.' });
    }
    // Nothing meant for the colleague arrives; the socket is still open and may subscribe to its own.
    const epak = await sendEpak(owner, [colleague.user.email]);
    socket.send({ type: 'subscribe', topic: signer.topic });
    expect(await socket.next()).toEqual({ type: 'subscribed', topic: signer.topic });
    await notify(epak.ePakId, signer.user.id);
    expect(await socket.next()).toMatchObject({ type: 'message', topic: signer.topic, notification: { notificationType: 'epakDeleted' } });
    expect(socket.pending()).toEqual([]);
  });

  it('refuses a bad token, a tenant the user is not a member of, and a super admin (whose app is the settings screen alone), closing the socket', async () => {
    const signer = await person('signer');
    const stranger = await person('signer');
    const superAdmin = await person('super_admin', signer.tenant);
    const cases: Array<[string, string, number]> = [
      ['pka_not-a-token-at-all', signer.tenant.id, -37],
      [`pka_${'a'.repeat(43)}`, signer.tenant.id, -5],
      [signer.grant.accessToken, stranger.tenant.id, -1],
      [superAdmin.grant.accessToken, superAdmin.tenant.id, -11],
    ];
    for (const [accessToken, tenantId, code] of cases) {
      const socket = await open();
      socket.send({ type: 'connect', accessToken, tenantId });
      expect(await socket.next()).toMatchObject({ type: 'error', code });
      expect((await socket.waitClosed()).code).toBe(SOCKET_CLOSE_CODES.authFailed);
    }
  });

  it('refuses a session bound to another address (-26), and takes one bound to the socket\'s own', async () => {
    const member = await person('signer');
    await t.database.db.insert(tenantSettings).values({ tenantId: member.tenant.id, settings: { bindSessionToAddress: true } });
    const signInFrom = async (remoteAddress: string) => {
      // Raw: the sign-in comes from a chosen remoteAddress, which inject() cannot set.
      const res = await t.app.inject({
        method: 'POST',
        url: '/msbapi/v1/authenticate',
        remoteAddress,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ username: member.user.email, password: GOOD_PASSWORD }).toString(),
      });
      return (res.json().data as TokenGrant).accessToken;
    };
    const elsewhere = await open();
    elsewhere.send({ type: 'connect', accessToken: await signInFrom('203.0.113.9'), tenantId: member.tenant.id });
    expect(await elsewhere.next()).toMatchObject({ type: 'error', code: -26 });
    expect((await elsewhere.waitClosed()).code).toBe(SOCKET_CLOSE_CODES.authFailed);
    // The test's sockets come from 127.0.0.1, as does a sign-in through inject by default.
    const here = await open();
    here.send({ type: 'connect', accessToken: await signInFrom('127.0.0.1'), tenantId: member.tenant.id });
    expect(await here.next()).toEqual({ type: 'connected', userId: member.user.id, tenantId: member.tenant.id });
  });

  it('refuses a signing-link session: it reaches one ePak, not anyone\'s notifications', async () => {
    const owner = await person('custodian');
    const epak = await sendEpak(owner, ['outside.person@elsewhere.test']);
    const [mail] = await t.database.db.select().from(outbox).where(eq(outbox.recipient, 'outside.person@elsewhere.test'));
    const token = /\/emailsign\?token=([A-Za-z0-9_-]+)/.exec(mail!.body)![1]!;
    const exchanged = await inject(t.app, exchangeEasyToken, { params: { easytoken: token } });
    const link = exchanged.json().data as { accessToken: string; tenantId: string; ePakId: string; user: { userId: string } };
    expect(link.ePakId).toBe(epak.ePakId);
    const socket = await open();
    socket.send({ type: 'connect', accessToken: link.accessToken, tenantId: link.tenantId });
    expect(await socket.next()).toMatchObject({ type: 'error', code: -11, message: 'A signing link opens only the ePak it was sent for.' });
    expect((await socket.waitClosed()).code).toBe(SOCKET_CLOSE_CODES.authFailed);
  });

  it('answers frames before connect and frames not of the protocol with an error, and stays open', async () => {
    const signer = await person('signer');
    const socket = await open();
    socket.send({ type: 'subscribe', topic: signer.topic });
    expect(await socket.next()).toMatchObject({ type: 'error', code: -5, message: 'Send a connect frame with your access token first.' });
    socket.send({ type: 'ping' });
    expect(await socket.next()).toMatchObject({ type: 'error', code: -5 });
    socket.send('not json');
    expect(await socket.next()).toMatchObject({ type: 'error', code: -6 });
    socket.send({ type: 'shout' });
    expect(await socket.next()).toMatchObject({ type: 'error', code: -6 });
    socket.send({ type: 'connect', accessToken: signer.grant.accessToken, tenantId: 'not-a-uuid' });
    expect(await socket.next()).toMatchObject({ type: 'error', code: -6, message: expect.stringContaining('tenantId') });
    expect(await socket.connect(signer.grant.accessToken, signer.tenant.id, signer.topic)).toMatchObject([{ type: 'connected' }, { type: 'subscribed' }]);
  });

  it('closes a socket whose frame is too large', async () => {
    const socket = await open();
    socket.send({ type: 'ping', padding: 'x'.repeat(MAX_CLIENT_FRAME_BYTES) });
    expect((await socket.waitClosed()).code).toBe(1009);
  });

  it('stops delivering once the session is logged out, and closes the socket', async () => {
    const owner = await person('custodian');
    const signer = await person('signer', owner.tenant);
    const epak = await sendEpak(owner, [signer.user.email]);
    const socket = await open();
    await socket.connect(signer.grant.accessToken, signer.tenant.id, signer.topic);
    await ok(logout, bearer(signer.grant));
    await notify(epak.ePakId, signer.user.id);
    expect(await socket.next()).toMatchObject({ type: 'error', code: -5 });
    expect((await socket.waitClosed()).code).toBe(SOCKET_CLOSE_CODES.authFailed);
  });

  it('catches up after losing its LISTEN connection, sending nothing twice', async () => {
    const owner = await person('custodian');
    const signer = await person('signer', owner.tenant);
    const epak = await sendEpak(owner, [signer.user.email]);
    const socket = await open();
    await socket.connect(signer.grant.accessToken, signer.tenant.id, signer.topic);
    const { rows } = await t.database.executeSql(
      "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = 'pakt-listen'",
    );
    expect(rows).toHaveLength(1);
    // Written while the hub is away or just back: NOTIFY or the catch-up brings it, not both.
    await notify(epak.ePakId, signer.user.id);
    const missed = await socket.next();
    expect(missed).toMatchObject({ type: 'message', notification: { notificationType: 'epakDeleted' } });
    await notify(epak.ePakId, signer.user.id);
    const next = await socket.next();
    expect(next).toMatchObject({ type: 'message' });
    expect(next.type === 'message' && missed.type === 'message' && next.notification.id !== missed.notification.id).toBe(true);
    expect(socket.pending()).toEqual([]);
  });

  it('takes a renewed token on the open socket, for the same person only', async () => {
    const owner = await person('custodian');
    const signer = await person('signer', owner.tenant);
    const other = await person('signer', owner.tenant);
    const epak = await sendEpak(owner, [signer.user.email]);
    const socket = await open();
    await socket.connect(signer.grant.accessToken, signer.tenant.id, signer.topic);
    // A refresh rotates the token the socket connected with; the client sends the new one.
    const renewed = await ok(refreshToken, {}, { body: { clientId: 'MSB3', refreshToken: signer.grant.refreshToken } });
    socket.send({ type: 'connect', accessToken: renewed.accessToken, tenantId: signer.tenant.id });
    expect(await socket.next()).toEqual({ type: 'connected', userId: signer.user.id, tenantId: signer.tenant.id });
    await notify(epak.ePakId, signer.user.id);
    expect(await socket.next()).toMatchObject({ type: 'message', topic: signer.topic });
    // Someone else's token would hand the socket over: refused and closed.
    socket.send({ type: 'connect', accessToken: other.grant.accessToken, tenantId: other.tenant.id });
    expect(await socket.next()).toMatchObject({ type: 'error', code: -11 });
    expect((await socket.waitClosed()).code).toBe(SOCKET_CLOSE_CODES.authFailed);
  });
});

describe('the limits of a hub', () => {
  let bare: FastifyInstance;
  let url = '';
  beforeAll(async () => {
    // The app's own routes over the same database, with limits small enough to reach in a test.
    bare = Fastify({ logger: false });
    bare.setValidatorCompiler(validatorCompiler);
    bare.setSerializerCompiler(serializerCompiler);
    installErrorHandling(bare);
    await registerNotificationRoutes(bare, t.context, { limits: { socketsPerUser: 2, connectTimeoutMs: 500, revalidateMs: 300 } });
    url = `${(await bare.listen({ host: '127.0.0.1', port: 0 })).replace('http', 'ws')}/notification`;
  });
  afterAll(() => bare.close());

  it('allows a user so many sockets, then refuses the next one until one closes', async () => {
    const signer = await person('signer');
    const [a, b, c] = [await open(url), await open(url), await open(url)];
    await a.connect(signer.grant.accessToken, signer.tenant.id);
    await b.connect(signer.grant.accessToken, signer.tenant.id);
    expect((await c.connect(signer.grant.accessToken, signer.tenant.id))[0]).toMatchObject({ type: 'error', code: -1 });
    expect((await c.waitClosed()).code).toBe(SOCKET_CLOSE_CODES.tooManySockets);
    a.close();
    await a.waitClosed();
    const d = await open(url);
    expect(await d.connect(signer.grant.accessToken, signer.tenant.id)).toMatchObject([{ type: 'connected' }]);
  });

  it('closes a socket that sends no connect frame in time', async () => {
    const socket = await open(url);
    expect(await socket.next()).toMatchObject({ type: 'error', code: -5, message: 'No connect frame was sent in time.' });
    expect((await socket.waitClosed()).code).toBe(SOCKET_CLOSE_CODES.connectTimeout);
  });

  it('closes a socket whose session ended, even with nothing to deliver', async () => {
    const signer = await person('signer');
    const socket = await open(url);
    await socket.connect(signer.grant.accessToken, signer.tenant.id, signer.topic);
    await ok(logout, bearer(signer.grant));
    expect(await socket.next()).toMatchObject({ type: 'error', code: -5 });
    expect((await socket.waitClosed()).code).toBe(SOCKET_CLOSE_CODES.authFailed);
  });
});

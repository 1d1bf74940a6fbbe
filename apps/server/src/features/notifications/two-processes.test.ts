import fs from 'node:fs';
import path from 'node:path';
import { EpakDetail, notificationTopic, type TokenGrant } from '@pakt/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { CrashEnvironment, type ServerProcess } from '../../test/sign-crash-support';
import { GOOD_PASSWORD, makeMember, makeTenant } from '../../test/factories';
import { multipart } from '../../test/multipart';
import { TestSocket } from '../../test/socket-support';
import { CORPUS } from '../../test/corpus';
import { signatureFieldsFor } from '../../test/app-factories';

/**
 * Issue 6, "done when": two real server processes (the entry `npm start` runs) on one
 * PostgreSQL. A WebSocket client of process B receives the notification of an ePak sent through
 * process A's HTTP API, and the other way round (a rejection made through B reaches the owner's
 * socket on A): the processes share nothing but the database, whose LISTEN/NOTIFY carries it.
 * A client still cannot subscribe to another user's or tenant's topic.
 */

let env: CrashEnvironment | undefined;
const servers: ServerProcess[] = [];
const sockets: TestSocket[] = [];
let failed = true;

afterAll(async () => {
  for (const socket of sockets) socket.close();
  for (const server of servers) {
    if (failed) console.error(`two-processes: server ${server.pid} said:\n${server.output().split('\n').slice(-30).join('\n')}`);
    await server.stop().catch(() => server.kill());
  }
  await env?.dispose({ keepDataDir: false });
});

async function call(base: string, method: string, url: string, headers: Record<string, string>, body?: unknown) {
  const raw = body instanceof Buffer;
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { ...headers, ...(body === undefined || raw ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: raw ? new Uint8Array(body) : JSON.stringify(body) }),
  });
  const json = (await res.json()) as { code: number; data: Record<string, unknown> };
  if (res.status !== 200) throw new Error(`${method} ${url} on ${base}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

async function signIn(base: string, email: string, tenantId: string) {
  const res = await fetch(`${base}/msbapi/v1/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: email, password: GOOD_PASSWORD }).toString(),
  });
  const grant = ((await res.json()) as { data: TokenGrant }).data;
  return { grant, headers: { authorization: `Bearer ${grant.accessToken}`, 'x-tenant-id': tenantId } };
}

async function socketTo(server: ServerProcess): Promise<TestSocket> {
  const socket = await TestSocket.open(`${server.url.replace('http', 'ws')}/notification`);
  sockets.push(socket);
  return socket;
}

describe('two server processes on one PostgreSQL', () => {
  it('carry a notification raised in one to a WebSocket client of the other, and refuse foreign topics', { timeout: 240_000 }, async () => {
    env = await CrashEnvironment.create();
    const people = await env.withDatabase(async (db) => {
      const tenant = await makeTenant(db);
      const other = await makeTenant(db);
      const member = async (role: 'custodian' | 'signer', at: { id: string }) => (await makeMember(db, { role, tenant: at })).user;
      return { tenant, other, owner: await member('custodian', tenant), signer: await member('signer', tenant), stranger: await member('signer', other) };
    });
    const a = await env.startServer();
    servers.push(a);
    const b = await env.startServer();
    servers.push(b);
    expect(a.url).not.toBe(b.url);

    // The owner works through A; the signer's browser is on B.
    const owner = await signIn(a.url, people.owner.email, people.tenant.id);
    const signer = await signIn(b.url, people.signer.email, people.tenant.id);
    const signerTopic = notificationTopic(people.signer.id, people.tenant.id);
    const onB = await socketTo(b);
    expect(await onB.connect(signer.grant.accessToken, people.tenant.id, signerTopic)).toEqual([
      { type: 'connected', userId: people.signer.id, tenantId: people.tenant.id },
      { type: 'subscribed', topic: signerTopic },
    ]);
    const ownerTopic = notificationTopic(people.owner.id, people.tenant.id);
    const onA = await socketTo(a);
    await onA.connect(owner.grant.accessToken, people.tenant.id, ownerTopic);

    // Someone else's topic, in this tenant or another, is refused on either process.
    for (const topic of [ownerTopic, notificationTopic(people.stranger.id, people.other.id), notificationTopic(people.signer.id, people.other.id)]) {
      onB.send({ type: 'subscribe', topic });
      expect(await onB.next()).toMatchObject({ type: 'error', code: -11 });
    }

    // A: compose and start an ePak for the signer.
    const upload = multipart(fs.readFileSync(path.join(CORPUS, 'plain-1p-pdftex.pdf')), 'plain-1p-pdftex.pdf');
    const doc = await call(a.url, 'POST', '/msbapi/v1/documents', { ...owner.headers, ...upload.headers }, upload.payload);
    const states = (await call(a.url, 'GET', '/msbapi/v1/workflow/states', owner.headers)).states as Array<{ type: string; workflowStateId: string }>;
    const epak = await call(a.url, 'POST', '/msbapi/v2/epak', owner.headers, {
      subject: 'Across processes',
      documentIds: [doc.documentId],
      steps: [{ workflowStateId: states.find((s) => s.type === 'SIGN')!.workflowStateId, recipients: [{ email: people.signer.email }] }],
    });
    for (const { documentId, tags } of signatureFieldsFor(EpakDetail.parse(epak))) {
      await call(a.url, 'POST', `/msbapi/v2/epaks/${epak.ePakId}/documents/${documentId}/signatureblocks`, owner.headers, { tags });
    }
    await call(a.url, 'POST', `/msbapi/v2/epaks/${epak.ePakId}/start`, owner.headers);

    // B's client hears it.
    expect(await onB.next()).toMatchObject({
      type: 'message',
      topic: signerTopic,
      notification: { notificationType: 'signRequest', epak: { id: epak.ePakId }, title: 'Please sign: Across processes' },
    });

    // And back: the signer rejects through B; the owner's socket on A hears it.
    await call(b.url, 'POST', `/msbapi/v2/epaks/${epak.ePakId}/reject`, signer.headers, { comment: 'Not this month.' });
    expect(await onA.next()).toMatchObject({
      type: 'message',
      topic: ownerTopic,
      notification: { notificationType: 'signDeclined', epak: { id: epak.ePakId }, body: expect.stringContaining('Not this month.') },
    });
    expect([onA.pending(), onB.pending()]).toEqual([[], []]);
    failed = false;
  });
});

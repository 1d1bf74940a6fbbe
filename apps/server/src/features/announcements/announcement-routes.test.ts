import {
  createAnnouncement,
  createInstanceAnnouncement,
  currentAnnouncements,
  deleteAnnouncement,
  deleteInstanceAnnouncement,
  type EndpointInput,
  listAnnouncements,
  listInstanceAnnouncements,
  updateAnnouncement,
  updateInstanceAnnouncement,
} from '@pakt/domain';
import { randomUUID } from 'node:crypto';
import { asc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announcements } from '../../platform/db/schema';
import { GOOD_PASSWORD, makeMember, makeRoot } from '../../test/factories';
import { bearer, signIn } from '../../test/sign-in';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { inject } from '../../test/inject';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const HOUR = 3_600_000;
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

type Headers = Record<string, string>;

async function adminOf(role: 'admin' | 'signer' | 'custodian' = 'admin', tenant?: { id: string }) {
  const member = await makeMember(t.database.db, { role, ...(tenant ? { tenant } : {}) });
  const grant = await signIn(t.app, member.user.email, GOOD_PASSWORD);
  return { ...member, headers: { ...bearer(grant), 'x-tenant-id': member.tenant.id } as Headers };
}

async function rootHeaders(): Promise<Headers> {
  const root = await makeRoot(t.database.db);
  return bearer(await signIn(t.app, root.email, GOOD_PASSWORD));
}

/** Every announcement row, so "unchanged" means unchanged. */
async function rows() {
  return t.database.db.select().from(announcements).orderBy(asc(announcements.id));
}

/** Creates a tenant's announcement, or with createInstanceAnnouncement an instance-wide one. */
function create(
  headers: Headers,
  body: EndpointInput<typeof createAnnouncement>['body'],
  endpoint: typeof createAnnouncement | typeof createInstanceAnnouncement = createAnnouncement,
) {
  return inject(t.app, endpoint, { headers, body });
}

const current = (headers: Headers = {}) => inject(t.app, currentAnnouncements, { headers });
const textsOf = (res: { json(): { data: { items: { text: string }[] } } }) => res.json().data.items.map((a) => a.text);

describe("a tenant admin's announcements", () => {
  it('creates, lists, updates and deletes them', async () => {
    const admin = await adminOf();
    const created = await create(admin.headers, { text: '  Maintenance tonight  ', startTime: at(HOUR), endTime: at(2 * HOUR) });
    expect(created.statusCode).toBe(200);
    const announcement = created.json().data;
    expect(announcement).toMatchObject({ text: 'Maintenance tonight', tenantId: admin.tenant.id });
    const [row] = (await rows()).filter((r) => r.id === announcement.id);
    expect(row!.createdBy).toBe(admin.user.id);

    const past = (await create(admin.headers, { text: 'Old news', startTime: at(-3 * HOUR), endTime: at(-2 * HOUR) })).data;
    const list = await inject(t.app, listAnnouncements, { headers: admin.headers });
    // Past ones stay listed for administrators; the latest start comes first.
    expect(list.json().data.items.map((a: { id: string }) => a.id)).toEqual([announcement.id, past.id]);

    const updated = await inject(t.app, updateAnnouncement, { params: { announcementId: announcement.id }, headers: admin.headers, body: { text: 'Maintenance moved', startTime: at(3 * HOUR), endTime: at(4 * HOUR) } });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().data).toMatchObject({ id: announcement.id, text: 'Maintenance moved' });
    expect(Date.parse(updated.json().data.startTime)).toBeGreaterThan(Date.now() + 2 * HOUR);

    const removed = await inject(t.app, deleteAnnouncement, { params: { announcementId: announcement.id }, headers: admin.headers });
    expect(removed.json()).toEqual({ code: 1, data: { id: announcement.id } });
    expect((await rows()).some((r) => r.id === announcement.id)).toBe(false);
    const again = await inject(t.app, deleteAnnouncement, { params: { announcementId: announcement.id }, headers: admin.headers });
    expect(again.statusCode).toBe(404);
  });

  it('refuses an end before the start (-6 on endTime), empty text and bad dates, storing nothing', async () => {
    const admin = await adminOf();
    const before = await rows();
    const backwards = await create(admin.headers, { text: 'Backwards', startTime: at(2 * HOUR), endTime: at(HOUR) });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json()).toMatchObject({ code: -6, issues: [{ path: 'body.endTime', message: 'endTime must be after startTime' }] });

    const same = at(HOUR);
    expect((await create(admin.headers, { text: 'Zero length', startTime: same, endTime: same })).json().issues).toEqual([
      { path: 'body.endTime', message: 'endTime must be after startTime' },
    ]);
    const blank = await create(admin.headers, { text: '   ', startTime: at(0), endTime: at(HOUR) });
    expect(blank.json()).toMatchObject({ code: -6, issues: [{ path: 'body.text' }] });
    const notADate = await create(admin.headers, { text: 'When?', startTime: 'tomorrow', endTime: at(HOUR) });
    expect(notADate.json()).toMatchObject({ code: -6, issues: [{ path: 'body.startTime' }] });
    const tooLong = await create(admin.headers, { text: 'x'.repeat(1001), startTime: at(0), endTime: at(HOUR) });
    expect(tooLong.json()).toMatchObject({ code: -6, issues: [{ path: 'body.text' }] });
    expect(await rows()).toEqual(before);

    const mine = (await create(admin.headers, { text: 'Fine', startTime: at(0), endTime: at(HOUR) })).data;
    const snapshot = await rows();
    const badUpdate = await inject(t.app, updateAnnouncement, { params: { announcementId: mine.id }, headers: admin.headers, body: { text: 'Fine', startTime: at(HOUR), endTime: at(0) } });
    expect(badUpdate.json()).toMatchObject({ code: -6, issues: [{ path: 'body.endTime' }] });
    expect(await rows()).toEqual(snapshot);
  });

  it("keeps tenants apart: B's admin cannot list, change or delete A's (404), and nothing changes", async () => {
    const a = await adminOf();
    const b = await adminOf();
    const ofA = (await create(a.headers, { text: 'Only for A', startTime: at(0), endTime: at(HOUR) })).data;
    const before = await rows();

    const listB = await inject(t.app, listAnnouncements, { headers: b.headers });
    expect(listB.json().data.items.map((x: { id: string }) => x.id)).not.toContain(ofA.id);
    // B's admin naming tenant A in the header is an outsider there.
    const asOutsider = { ...b.headers, 'x-tenant-id': a.tenant.id };
    expect((await inject(t.app, listAnnouncements, { headers: asOutsider })).statusCode).toBe(404);

    const payload = { text: 'Hijacked', startTime: at(0), endTime: at(HOUR) };
    for (const headers of [b.headers, asOutsider]) {
      const put = await inject(t.app, updateAnnouncement, { params: { announcementId: ofA.id }, headers, body: payload });
      expect(put.statusCode).toBe(404);
      expect(put.json()).toEqual({ code: -1, data: null, message: 'Not found.' });
      const del = await inject(t.app, deleteAnnouncement, { params: { announcementId: ofA.id }, headers });
      expect(del.statusCode).toBe(404);
    }
    // Nor may a tenant admin reach root's instance-wide ones through the tenant endpoints.
    const instance = (await create(await rootHeaders(), { text: 'Instance', startTime: at(0), endTime: at(HOUR) }, createInstanceAnnouncement)).data;
    const afterRoot = await rows();
    expect((await inject(t.app, updateAnnouncement, { params: { announcementId: instance.id }, headers: a.headers, body: payload })).statusCode).toBe(404);
    expect((await inject(t.app, deleteAnnouncement, { params: { announcementId: instance.id }, headers: a.headers })).statusCode).toBe(404);
    expect(await rows()).toEqual(afterRoot);
    expect(afterRoot.filter((r) => r.id !== instance.id)).toEqual(before);
  });

  it('refuses members who are not admins (403) and changes nothing', async () => {
    const admin = await adminOf();
    const existing = (await create(admin.headers, { text: 'Existing', startTime: at(0), endTime: at(HOUR) })).data;
    const payload = { text: 'Mine now', startTime: at(0), endTime: at(HOUR) };
    for (const role of ['signer', 'custodian'] as const) {
      const member = await adminOf(role, admin.tenant);
      const before = await rows();
      const attempts = [
        await inject(t.app, listAnnouncements, { headers: member.headers }),
        await create(member.headers, payload),
        await inject(t.app, updateAnnouncement, { params: { announcementId: existing.id }, headers: member.headers, body: payload }),
        await inject(t.app, deleteAnnouncement, { params: { announcementId: existing.id }, headers: member.headers }),
      ];
      for (const res of attempts) {
        expect(res.statusCode).toBe(403);
        expect(res.json().code).toBe(-11);
      }
      expect(await rows()).toEqual(before);
    }
  });
});

describe("root's instance-wide announcements", () => {
  it('are managed by root only, apart from any tenant', async () => {
    const root = await rootHeaders();
    const admin = await adminOf();
    const ofTenant = (await create(admin.headers, { text: 'Tenant one', startTime: at(0), endTime: at(HOUR) })).data;

    const made = await create(root, { text: 'Upgrade on Sunday', startTime: at(HOUR), endTime: at(5 * HOUR) }, createInstanceAnnouncement);
    expect(made.data).toMatchObject({ text: 'Upgrade on Sunday', tenantId: null });
    const id = made.data.id;

    const list = await inject(t.app, listInstanceAnnouncements, { headers: root });
    const listed = list.json().data.items as { id: string; tenantId: string | null }[];
    expect(listed.map((a) => a.id)).toContain(id);
    expect(listed.every((a) => a.tenantId === null)).toBe(true);

    const changed = await inject(t.app, updateInstanceAnnouncement, { params: { announcementId: id }, headers: root, body: { text: 'Upgrade on Monday', startTime: at(HOUR), endTime: at(5 * HOUR) } });
    expect(changed.json().data.text).toBe('Upgrade on Monday');

    // Root's endpoints never reach a tenant's rows.
    const before = await rows();
    const payload = { text: 'x', startTime: at(0), endTime: at(HOUR) };
    expect((await inject(t.app, updateInstanceAnnouncement, { params: { announcementId: ofTenant.id }, headers: root, body: payload })).statusCode).toBe(404);
    expect((await inject(t.app, deleteInstanceAnnouncement, { params: { announcementId: ofTenant.id }, headers: root })).statusCode).toBe(404);
    // A tenant admin is not root.
    for (const res of [
      await inject(t.app, listInstanceAnnouncements, { headers: admin.headers }),
      await create(admin.headers, payload, createInstanceAnnouncement),
      await inject(t.app, updateInstanceAnnouncement, { params: { announcementId: id }, headers: admin.headers, body: payload }),
      await inject(t.app, deleteInstanceAnnouncement, { params: { announcementId: id }, headers: admin.headers }),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe(-11);
    }
    expect(await rows()).toEqual(before);

    expect((await inject(t.app, deleteInstanceAnnouncement, { params: { announcementId: id }, headers: root })).json().data).toEqual({ id });
    expect(await create(root, { text: 'Backwards', startTime: at(HOUR), endTime: at(0) }, createInstanceAnnouncement)).toMatchObject({
      statusCode: 400,
    });
  });
});

describe('the public current announcements', () => {
  it('shows what has not ended, instance-wide plus the caller tenant’s own, by start; never another tenant’s', async () => {
    const root = await rootHeaders();
    const a = await adminOf();
    const b = await adminOf();
    const memberOfA = await adminOf('signer', a.tenant);
    const tag = randomUUID().slice(0, 8);
    const make = (headers: Headers, text: string, start: number, end: number, endpoint?: typeof createInstanceAnnouncement) =>
      create(headers, { text: `${tag} ${text}`, startTime: at(start), endTime: at(end) }, endpoint);
    const instanceWide = createInstanceAnnouncement;
    await make(root, 'instance later', 2 * HOUR, 3 * HOUR, instanceWide);
    await make(root, 'instance now', -HOUR, HOUR, instanceWide);
    await make(root, 'instance over', -2 * HOUR, -HOUR, instanceWide);
    await make(a.headers, 'A now', -30 * 60_000, HOUR);
    await make(a.headers, 'A over', -3 * HOUR, -60_000);
    await make(b.headers, 'B now', -HOUR, HOUR);
    const mine = (res: Awaited<ReturnType<typeof current>>) => textsOf(res).filter((text) => text.startsWith(tag));

    // Anonymous (the login page): instance-wide only, ended ones left out, earliest start first.
    expect(mine(await current())).toEqual([`${tag} instance now`, `${tag} instance later`]);
    // A member of A (any role) also sees A's own, never B's.
    expect(mine(await current(memberOfA.headers))).toEqual([`${tag} instance now`, `${tag} A now`, `${tag} instance later`]);
    expect(mine(await current(b.headers))).toEqual([`${tag} instance now`, `${tag} B now`, `${tag} instance later`]);

    // A header naming a tenant the caller does not belong to, a bad token or a junk header is just
    // an anonymous visitor: no failure, no tenant announcements.
    const strangers: Headers[] = [
      { ...memberOfA.headers, 'x-tenant-id': b.tenant.id },
      { authorization: 'Bearer not-a-real-token-at-all', 'x-tenant-id': a.tenant.id },
      { ...memberOfA.headers, 'x-tenant-id': 'not-a-uuid' },
      { 'x-tenant-id': a.tenant.id },
    ];
    for (const headers of strangers) {
      const res = await current(headers);
      expect(res.statusCode).toBe(200);
      expect(mine(res)).toEqual([`${tag} instance now`, `${tag} instance later`]);
    }
  });
});

import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AdminAuditEntry } from '@pakt/domain';
import { describe, expect, it } from 'vitest';
import { TENANT_HEADER } from '../../api/client';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { jsonResponse, signedInSession, stubApi, TENANT_ACME } from '../../test/fake-api';
import { inputLabelled, renderApp, typeInto } from '../../test/render-app';
import { auditRangeProblem, auditRequestQuery, compactDetails, EMPTY_AUDIT_FILTERS } from './audit-filters';

// These render the whole app with its queries; on a busy machine the first answer can take more
// than Testing Library's default second.
configure({ asyncUtilTimeout: 3000 });

// jsdom lays nothing out; Mantine's combobox scrolls the active option into view.
Element.prototype.scrollIntoView ??= () => undefined;

const a = en.adminAudit;
const AUDIT = '/msbapi/v2/admin/audit';
const ok = (data: unknown) => jsonResponse({ code: 1, data });

const entry = (overrides: Partial<AdminAuditEntry> = {}): AdminAuditEntry => ({
  id: '0c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5',
  action: 'group_created',
  createdOn: '2025-03-04T10:15:00.000Z',
  actor: { userId: '5d1c9a7e-2b4f-4e6a-8c3d-0f1e2a3b4c5d', email: 'asha@example.com', name: 'Asha Rao' },
  targetType: 'group',
  targetId: '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b01',
  targetLabel: 'Sales',
  details: { groupName: 'Sales', members: 2 },
  ...overrides,
});

/** The query string of each request to the log, as key/value pairs. */
const queries = (requests: { url: string }[]) => requests.map((request) => Object.fromEntries(new URL(request.url, 'http://x').searchParams));

async function openAudit() {
  sessionStore.set(signedInSession());
  renderApp('/admin?section=audit');
  await screen.findByRole('heading', { level: 1, name: a.title });
}

describe('audit filter helpers', () => {
  it('sends only the filters that are set, with the page and its size', () => {
    expect(auditRequestQuery(EMPTY_AUDIT_FILTERS, 0)).toEqual({ pg: 0, size: 25 });
    expect(auditRequestQuery({ action: 'group_renamed', target: '  sales ', from: '2025-03-01', to: '2025-03-31', size: 50 }, 2)).toEqual({
      action: 'group_renamed',
      target: 'sales',
      from: '2025-03-01',
      to: '2025-03-31',
      pg: 2,
      size: 50,
    });
    // Half-typed dates are not days yet.
    expect(auditRequestQuery({ ...EMPTY_AUDIT_FILTERS, from: '2025-03' }, 0)).toEqual({ pg: 0, size: 25 });
    expect(auditRangeProblem({ from: '2025-03-10', to: '2025-03-01' })).toBe('adminAudit.filters.rangeInvalid');
    expect(auditRangeProblem({ from: '2025-03-01', to: '2025-03-01' })).toBeNull();
    expect(auditRangeProblem({ from: '', to: '2025-03-01' })).toBeNull();
  });

  it('writes details on one line, by name: ids shortened, long lists cut', () => {
    expect(compactDetails({})).toBe('');
    expect(compactDetails({ from: 'Sales', to: 'Revenue' })).toBe('from: Sales · to: Revenue');
    expect(
      compactDetails({
        userIds: ['1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c01', '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c02', 'x', 'y', 'z'],
        manager: true,
        role: null,
      }),
    ).toBe('manager: true · role: — · userIds: 1a2b3c4d…, 1a2b3c4d…, x +2');
    expect(compactDetails({ members: [], manager: null })).toBe('manager: — · members: —');
    expect(compactDetails({ change: { before: 'signer', after: 'admin' } })).toBe('change: {"before":"signer","after":"admin"}');
  });
});

describe('the audit log on /admin', () => {
  it('shows the newest entries with who, the translated action, the target and the details', async () => {
    const { requestsTo } = stubApi({
      [`GET ${AUDIT}`]: () =>
        ok({
          total: 2,
          pg: 0,
          size: 25,
          items: [
            entry({ id: '0c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d6', action: 'group_members_added', details: { count: 2 } }),
            entry({ actor: null, action: 'user_role_changed', targetType: 'user', targetLabel: 'ravi@example.com', details: {} }),
          ],
        }),
    });
    await openAudit();
    const list = await screen.findByRole('list', { name: a.tableLabel });
    const items = within(list).getAllByTestId('audit-entry');
    expect(items).toHaveLength(2);
    expect(within(items[0]!).getByText(a.actions.group_members_added)).toBeTruthy();
    expect(within(items[0]!).getByText('Asha Rao')).toBeTruthy();
    expect(within(items[0]!).getByText('Sales')).toBeTruthy();
    expect(within(items[0]!).getByText('count: 2')).toBeTruthy();
    expect(items[0]!.querySelector('time')?.getAttribute('datetime')).toBe('2025-03-04T10:15:00.000Z');
    expect(within(items[1]!).getByText(a.actions.user_role_changed)).toBeTruthy();
    expect(within(items[1]!).getByText(a.formerAccount)).toBeTruthy();
    expect(within(items[1]!).getByText(a.targetTypes.user)).toBeTruthy();
    expect(screen.getByTestId('audit-range').textContent).toBe('1–2 of 2');
    expect(requestsTo('GET', AUDIT)[0]?.headers.get(TENANT_HEADER)).toBe(TENANT_ACME);
    expect(queries(requestsTo('GET', AUDIT))[0]).toEqual({ pg: '0', size: '25' });
  });

  it('turns each filter into a query parameter, and starts again from the first page when they change', async () => {
    const { requestsTo } = stubApi({
      [`GET ${AUDIT}`]: ({ url }) => {
        const params = new URL(url, 'http://x').searchParams;
        const size = Number(params.get('size'));
        return ok({ total: 120, pg: Number(params.get('pg')), size, items: [entry()] });
      },
    });
    await openAudit();
    await screen.findByTestId('audit-range');
    fireEvent.click(screen.getByRole('button', { name: en.adminAudit.paging.next }));
    await waitFor(() => expect(queries(requestsTo('GET', AUDIT)).at(-1)).toEqual({ pg: '1', size: '25' }));

    // The action, chosen by its translated label.
    fireEvent.click(inputLabelled(a.filters.action));
    fireEvent.click(await screen.findByRole('option', { name: a.actions.group_members_added }));
    await waitFor(() => expect(queries(requestsTo('GET', AUDIT)).at(-1)).toEqual({ action: 'group_members_added', pg: '0', size: '25' }));

    typeInto(a.filters.target, 'Sales');
    typeInto(a.filters.from, '2025-03-01');
    typeInto(a.filters.to, '2025-03-31');
    await waitFor(() =>
      expect(queries(requestsTo('GET', AUDIT)).at(-1)).toEqual({
        action: 'group_members_added',
        target: 'Sales',
        from: '2025-03-01',
        to: '2025-03-31',
        pg: '0',
        size: '25',
      }),
    );

    fireEvent.click(inputLabelled(a.filters.size));
    fireEvent.click(await screen.findByRole('option', { name: '100' }));
    await waitFor(() => expect(queries(requestsTo('GET', AUDIT)).at(-1)).toMatchObject({ size: '100', pg: '0' }));

    fireEvent.click(screen.getByRole('button', { name: a.filters.clear }));
    await waitFor(() => expect(queries(requestsTo('GET', AUDIT)).at(-1)).toEqual({ pg: '0', size: '100' }));
  });

  it('asks nothing for a stretch that ends before it starts', async () => {
    const { requestsTo } = stubApi({ [`GET ${AUDIT}`]: () => ok({ total: 0, pg: 0, size: 25, items: [] }) });
    await openAudit();
    expect(await screen.findByText(a.empty)).toBeTruthy();
    typeInto(a.filters.from, '2025-03-10');
    await waitFor(() => expect(requestsTo('GET', AUDIT)).toHaveLength(2));
    expect(await screen.findByText(a.noMatch)).toBeTruthy();
    typeInto(a.filters.to, '2025-03-01');
    expect(await screen.findByText(a.filters.rangeInvalid)).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requestsTo('GET', AUDIT)).toHaveLength(2);
  });
});

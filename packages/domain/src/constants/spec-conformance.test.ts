import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, it, expect } from 'vitest';
import { NOTIFICATION_TYPES } from './notifications';
import { ODP_CODES, ODP_CODE_MEANINGS } from './odp-codes';
import { ADMIN_USER_FOLDER_VIEWS, AUTO_REGISTRATION_ROLES, ROLES, VIEW_ENFORCEMENT_ROLES } from './roles';
import { DIGITAL_SIGNING_POLICIES, SIGNATURE_PAD_TYPES, SIGNING_POLICIES, SINGLE_SIGNATURE_TAG_POLICIES } from './signing-policies';
import { STAMP_DENOMINATIONS } from './stamp-papers';
import {
  ACCESS_DENIED_STATUSES,
  DOCUMENT_STATUSES,
  FOLDERS,
  SIGNER_STATUSES,
  STAMP_PAPER_STATUS_LABELS,
  TEAM_ROOM_STATUSES,
  USER_STATUSES,
} from './statuses';
import { SIGN_TAG_IDS, TAG_CATEGORIES, TAG_COLOURS, TAG_CREATE_TYPES, TAG_ROLES, TAG_TYPES } from './tags';
import {
  ALLOWED_DOCUMENT_FORMATS,
  ATTACHMENT_TABS,
  AUTH_MECHANISMS,
  CHART_SCOPES,
  CHART_TYPES,
  CONFIG_TYPES,
  GEOLOCATION_TYPES,
  INVITE_TYPES,
  NAME_PREFIXES,
  REPORT_EXPORT_OPTIONS,
  SMART_CARD_REDIRECT_STATUSES,
  VERIFICATION_MODES,
  VIEW_ENFORCE_OPTIONS,
  WEEKLY_SERIES_ALL,
  WEEKLY_SERIES_USER_OR_GROUP,
} from './ui';
import { BULK_OPERATIONS, BULK_SIGN_RESULTS, SIGN_ACTIONS, WORKFLOW_STATE_TYPES } from './workflow';

// The spec lives beside the checkout (../shared), as it does for every developer and CI run; a
// missing spec fails here rather than silently skipping the comparison.
const specUrl = new URL('../../../../../shared/spec/product-spec.md', import.meta.url);
const spec = existsSync(specUrl) ? readFileSync(specUrl, 'utf8') : '';

// Text after `label` up to `end` (default: end of sentence), split on commas and and/or.
function specList(label: string, end: RegExp = /\.(?:\s|$)|$/m): string[] {
  const start = spec.indexOf(label);
  if (start < 0) throw new Error(`label not found in spec: ${label}`);
  const rest = spec.slice(start + label.length);
  const stop = rest.search(end);
  return rest
    .slice(0, stop < 0 ? undefined : stop)
    .split(/,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+/)
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

describe('constants match the spec text', () => {
  it('resolves the spec path', () => {
    expect(fileURLToPath(specUrl)).toMatch(/\/shared\/spec\/product-spec\.md$/);
    expect(spec.length).toBeGreaterThan(1000);
  });

  it.each([
    ['Signing policies: ', SIGNING_POLICIES],
    ['Workflow state types: ', WORKFLOW_STATE_TYPES],
    ['Signer statuses: ', SIGNER_STATUSES],
    ['Document statuses: ', DOCUMENT_STATUSES],
    ['Folders: ', FOLDERS],
    ['User statuses: ', USER_STATUSES],
    ['Team room statuses: ', TEAM_ROOM_STATUSES],
    ['Sign actions: ', SIGN_ACTIONS],
    ['Bulk sign results: ', BULK_SIGN_RESULTS],
    ['Bulk operation: ', BULK_OPERATIONS],
    ['Tag types: ', TAG_TYPES],
    ['Tag categories: ', TAG_CATEGORIES],
    ['Tag roles: ', TAG_ROLES],
    ['Tag colours: ', TAG_COLOURS],
    ['Admin user-folder views: ', ADMIN_USER_FOLDER_VIEWS],
    ['Auto-registration may assign ', AUTO_REGISTRATION_ROLES],
    ['Digital policies: ', DIGITAL_SIGNING_POLICIES],
    ['unsupported for the policies ', SINGLE_SIGNATURE_TAG_POLICIES],
    ['Signature pad types: ', SIGNATURE_PAD_TYPES],
    ['Allowed document formats: ', ALLOWED_DOCUMENT_FORMATS],
    ['Geolocation types: ', GEOLOCATION_TYPES],
    ['Verification modes: ', VERIFICATION_MODES],
    ['View enforce options: ', VIEW_ENFORCE_OPTIONS],
    ['Auth mechanisms: ', AUTH_MECHANISMS],
    ['Config types: ', CONFIG_TYPES],
    ['Chart scopes: ', CHART_SCOPES],
    ['Chart types: ', CHART_TYPES],
    ['Report export options: ', REPORT_EXPORT_OPTIONS],
    ['Invite types: ', INVITE_TYPES],
    ['Attachment tabs: ', ATTACHMENT_TABS],
    ['query status with one of: ', ACCESS_DENIED_STATUSES],
  ] as const)('%s', (label, values) => {
    expect([...values]).toEqual(specList(label));
  });

  it('roles', () => {
    expect([...ROLES]).toEqual(specList('\nRoles: '));
  });

  it('view-enforcement roles', () => {
    expect([...VIEW_ENFORCEMENT_ROLES]).toEqual(specList('View enforcement applies to the roles ', /, in the Inbox/));
  });

  it('tag createType values', () => {
    expect([...TAG_CREATE_TYPES]).toEqual(specList('createType (', /\)/));
  });

  it('weekly chart series', () => {
    expect([...WEEKLY_SERIES_ALL]).toEqual(specList('Weekly series for all: ', /;/));
    expect([...WEEKLY_SERIES_USER_OR_GROUP]).toEqual(specList('for user or group: '));
  });

  it('name prefixes keep their dots', () => {
    expect(specList('Name prefixes: ', /$/m)).toEqual([...NAME_PREFIXES]);
  });

  it('smart-card redirect statuses', () => {
    expect([...SMART_CARD_REDIRECT_STATUSES]).toEqual(specList('Smart-card redirect statuses: ', /;/));
  });

  it('stamp denominations', () => {
    expect([...STAMP_DENOMINATIONS]).toEqual(specList('Stamp denominations: ').map(Number));
  });

  it('stamp paper status labels', () => {
    const pairs = specList('Stamp paper statuses (value, label): ').map((pair) => pair.split(' '));
    expect(pairs).toEqual(Object.entries(STAMP_PAPER_STATUS_LABELS));
  });

  it('sign tag ids', () => {
    const normalise = (name: string) => name.replace(/\s+/g, '').toLowerCase();
    const fromSpec = specList('Sign tag ids: ').map((entry) => {
      const match = /^(.+) (\d+)$/.exec(entry);
      if (!match) throw new Error(`unexpected entry ${entry}`);
      return [normalise(match[1] ?? ''), Number(match[2])];
    });
    expect(fromSpec).toEqual(Object.entries(SIGN_TAG_IDS).map(([name, id]) => [normalise(name), id]));
  });

  it('notification types', () => {
    const section = spec.slice(spec.indexOf('Notification handling by type:'), spec.indexOf('Tag editing:'));
    const fromSpec = [...section.matchAll(/- ([^:]+):/g)].flatMap((m) => (m[1] ?? '').split(/,\s*/));
    expect(fromSpec).toEqual([...NOTIFICATION_TYPES]);
  });

  it('ODP signing codes and meanings', () => {
    const fromSpec: Array<[number, string]> = [];
    for (const entry of spec
      .slice(spec.indexOf('ODP signing codes: ') + 'ODP signing codes: '.length)
      .split('\n')[0]!
      .replace(/\.$/, '')
      .split(/,\s*/)) {
      const match = /^(\d+)(?: and (\d+))? (.+)$/.exec(entry);
      if (!match) throw new Error(`unexpected entry ${entry}`);
      const codes = [match[1], match[2]].filter((c): c is string => c !== undefined);
      for (const code of codes) fromSpec.push([Number(code), match[3] ?? '']);
    }
    expect(fromSpec.map(([code]) => code)).toEqual([...ODP_CODES]);
    for (const [code, meaning] of fromSpec) {
      expect(ODP_CODE_MEANINGS[code as keyof typeof ODP_CODE_MEANINGS]).toBe(meaning);
    }
  });
});

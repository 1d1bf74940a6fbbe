import type { EpakDetail } from '@pakt/domain';
import { describe, expect, it } from 'vitest';
import { epakOf, viewerOf } from '../../test/ceremony-fixtures';
import { manageAbilities, type ManageAbilities } from './manage-abilities';

const TENANT = '0b6f1c3e-8d2a-4c5b-9e7f-1a2b3c4d5e6f';
const OWNER = '5d1c9a7e-2b4f-4e6a-8c3d-0f1e2a3b4c5d';
const OTHER = '11111111-2222-4333-8444-555555555555';

const owner = { userId: OWNER, tenantId: TENANT, role: 'custodian' as const };
const ownersEpak = (over: Partial<EpakDetail> = {}, viewer = viewerOf({ isOwner: true, recipientId: null, canAct: false, status: null, stepOrder: null, stepType: null })) =>
  epakOf({ ownerId: OWNER, ...over }, viewer);

const on = (abilities: ManageAbilities) => (Object.keys(abilities) as (keyof ManageAbilities)[]).filter((key) => abilities[key]).sort();

describe('manageAbilities: what the view offers, by the domain policies', () => {
  it.each([
    {
      name: 'the owner of an ePak under way',
      input: { actor: owner, compose: true, epak: ownersEpak() },
      expected: ['attach', 'edit', 'links', 'manage', 'notificationDate', 'recallDelegation', 'remind', 'removeRecipient', 'replaceRecipient', 'stop', 'archivalPeriod', 'view'],
    },
    {
      name: 'the owner who is also waited for in the step under way may hand their place on',
      input: { actor: owner, compose: true, epak: ownersEpak({}, viewerOf({ isOwner: true, canAct: true })) },
      expected: ['attach', 'delegateOwnPlace', 'edit', 'links', 'manage', 'notificationDate', 'recallDelegation', 'remind', 'removeRecipient', 'replaceRecipient', 'stop', 'archivalPeriod', 'view'],
    },
    {
      name: 'the owner of a completed ePak: archive and keeping, links and reading',
      input: { actor: owner, compose: true, epak: ownersEpak({ status: 'Completed', currentStep: null }) },
      expected: ['archivalPeriod', 'archive', 'links', 'manage', 'view'],
    },
    {
      name: 'the owner of an archived ePak: reading only',
      input: { actor: owner, compose: true, epak: ownersEpak({ status: 'Completed', currentStep: null }), management: { archivedOn: '2025-03-06T10:00:00.000Z' } },
      expected: ['manage', 'view'],
    },
    {
      name: 'a recipient (not the owner): no management at all',
      input: { actor: { ...owner, userId: OTHER }, compose: true, epak: epakOf({ ownerId: OWNER }) },
      expected: ['delegateOwnPlace', 'view'],
    },
    {
      name: 'the owner whose role may no longer compose: the owner-only calls would be refused',
      input: { actor: { ...owner, role: 'signer' as const }, compose: false, epak: ownersEpak() },
      expected: ['recallDelegation', 'view'],
    },
    {
      name: 'signed out',
      input: { actor: null, compose: false, epak: ownersEpak() },
      expected: [],
    },
  ])('$name', ({ input, expected }) => {
    expect(on(manageAbilities(input))).toEqual([...expected].sort());
  });
});

import { describe, expect, it } from 'vitest';
import { inboxFolders, type InboxFolderInput } from './folders';

const base: InboxFolderInput = { status: 'InProgress', currentStep: 2, deleted: false, archived: false, isOwner: false, places: [] };
const owner = { ...base, isOwner: true };

describe('inbox folders of one person', () => {
  it.each([
    ['the owner of a draft', { ...owner, status: 'Draft', currentStep: null }, ['Draft']],
    ['a recipient of a draft', { ...base, status: 'Draft', currentStep: null, places: [{ status: 'Pending', stepOrder: 1 }] }, []],
    ['the owner of a deleted draft', { ...owner, status: 'Draft', currentStep: null, deleted: true }, ['Deleted']],
    ['the owner, under way', owner, ['Pending']],
    ['the owner who signs in the step under way', { ...owner, places: [{ status: 'Pending', stepOrder: 2 }] }, ['Inbox']],
    ['a signer of the step under way', { ...base, places: [{ status: 'Pending', stepOrder: 2 }] }, ['Inbox']],
    ['a delegate not yet registered', { ...base, places: [{ status: 'DelegatePending', stepOrder: 2 }] }, ['Inbox']],
    ['a signer of a later step', { ...base, places: [{ status: 'Pending', stepOrder: 3 }] }, []],
    ['a reviewer who reviewed', { ...base, places: [{ status: 'Reviewed', stepOrder: 1 }] }, ['Pending', 'Reviewed']],
    ['a signer who signed and waits again later', { ...base, places: [{ status: 'Signed', stepOrder: 1 }, { status: 'Pending', stepOrder: 3 }] }, ['Pending', 'Signed']],
    ['a signer who signed and is asked again now', { ...base, places: [{ status: 'Signed', stepOrder: 1 }, { status: 'Pending', stepOrder: 2 }] }, ['Inbox', 'Signed']],
    ['one who delegated', { ...base, places: [{ status: 'Delegated', stepOrder: 2 }] }, ['Delegated', 'Pending']],
    ['an EMAIL recipient', { ...base, places: [{ status: 'Emailed', stepOrder: 1 }] }, ['Pending']],
    ['a signer, completed', { ...base, status: 'Completed', currentStep: null, places: [{ status: 'Signed', stepOrder: 2 }] }, ['Completed', 'Signed']],
    ['the owner, completed', { ...owner, status: 'Completed', currentStep: null }, ['Completed']],
    ['the one who rejected', { ...base, status: 'Rejected', currentStep: null, places: [{ status: 'Rejected', stepOrder: 2 }] }, ['Rejected']],
    ['a later signer of a rejected ePak', { ...base, status: 'Rejected', currentStep: null, places: [{ status: 'NotRequired', stepOrder: 3 }] }, []],
    ['the owner, stopped', { ...owner, status: 'Stopped', currentStep: null }, ['Stopped']],
    ['a waiting signer, expired', { ...base, status: 'Expired', currentStep: null, places: [{ status: 'NotRequired', stepOrder: 2 }] }, []],
    ['a reviewer, expired', { ...base, status: 'Expired', currentStep: null, places: [{ status: 'Reviewed', stepOrder: 1 }] }, ['Expired', 'Reviewed']],
    ['a signer of the step under way, deleted', { ...base, deleted: true, places: [{ status: 'Pending', stepOrder: 2 }] }, ['Deleted']],
    ['the owner, archived and deleted', { ...owner, status: 'Completed', currentStep: null, deleted: true, archived: true }, ['Archived']],
    ['someone with no place', base, []],
  ] as const)('%s', (_, input, folders) => {
    expect(inboxFolders(input as InboxFolderInput)).toEqual(folders);
  });
});

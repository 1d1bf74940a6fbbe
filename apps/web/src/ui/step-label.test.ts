import { BUILT_IN_WORKFLOW_STATE_NAMES, WORKFLOW_STATE_TYPES } from '@pakt/domain';
import { describe, expect, it } from 'vitest';
import en from '../i18n/en.json';
import hi from '../i18n/hi.json';
import { i18n } from '../i18n/i18n';
import { reasonLabel } from './reason-label';
import { stateOptionLabel, stepLabel } from './step-label';

// Hindi is fetched when first needed (i18n/bundles.ts): load it before fixing a t to it.
await i18n.loadLanguages('hi');
const inHindi = i18n.getFixedT('hi');
const inEnglish = i18n.getFixedT('en');

describe('stepLabel', () => {
  it.each(WORKFLOW_STATE_TYPES)('shows the built-in %s state in the reader’s language', (type) => {
    const step = { name: BUILT_IN_WORKFLOW_STATE_NAMES[type], type };
    expect(stepLabel(inHindi, step)).toBe(hi.workflowStateTypes[type]);
    expect(stepLabel(inEnglish, step)).toBe(en.workflowStateTypes[type]);
    expect(stepLabel(inHindi, step)).toMatch(/[\u0900-\u097F]/);
  });

  it('leaves a name an admin typed (or changed) as typed', () => {
    expect(stepLabel(inHindi, { name: 'Legal review', type: 'REVIEW' })).toBe('Legal review');
    // The built-in name of another type is a name of the admin's choosing here.
    expect(stepLabel(inHindi, { name: 'Review', type: 'SIGN' })).toBe('Review');
    expect(stepLabel(inHindi, { name: 'review', type: 'REVIEW' })).toBe('review');
  });

  it('names a select choice once when it is the type, and with its type otherwise', () => {
    expect(stateOptionLabel(inHindi, { name: 'Sign', type: 'SIGN' })).toBe(hi.workflowStateTypes.SIGN);
    expect(stateOptionLabel(inHindi, { name: 'Legal review', type: 'REVIEW' })).toBe(`Legal review (${hi.workflowStateTypes.REVIEW})`);
    expect(stateOptionLabel(inEnglish, { name: 'In-person sign', type: 'INPERSONSIGN' })).toBe('In-person sign');
  });
});

describe('reasonLabel', () => {
  it('shows the built-in reasons in Hindi by their key, and a tenant’s own reason as typed', () => {
    expect(reasonLabel(inHindi, { key: 'approve', text: 'I approve this document' })).toBe(hi.signing.reasons.approve);
    expect(reasonLabel(inHindi, { key: 'witness', text: 'I sign as a witness' })).toBe(hi.signing.reasons.witness);
    expect(reasonLabel(inHindi, { key: null, text: 'Checked by finance' })).toBe('Checked by finance');
  });
});

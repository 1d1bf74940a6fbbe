import type { DocumentSignatureState, ExistingSignature } from '@pakt/domain';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../api/query-client';
import { AppProviders } from '../app/providers';
import { SignatureStateNote } from './signature-state-note';

/** Issue 20, defect 5: what a document's own signatures were at upload, as people are told. */
const signature = (over: Partial<ExistingSignature> = {}): ExistingSignature => ({
  fieldName: 'Signature1',
  signerName: 'Asha Rao',
  signedAt: '2026-01-02T10:00:00.000Z',
  reason: null,
  subFilter: 'ETSI.CAdES.detached',
  integrity: 'intact',
  problem: null,
  coversWholeFile: true,
  unsignedBytesAfter: 0,
  revisionsAfter: 0,
  ...over,
});

function show(state: DocumentSignatureState | null) {
  return render(
    <AppProviders queryClient={createQueryClient()} env="test">
      <SignatureStateNote state={state} />
    </AppProviders>,
  );
}

describe('the note on a document’s own signatures', () => {
  it('says nothing of an unsigned file, or one uploaded before signatures were checked', () => {
    show({ status: 'unsigned', signatures: [] });
    expect(screen.queryByTestId('signature-state')).toBeNull();
    show(null);
    expect(screen.queryByTestId('signature-state')).toBeNull();
  });

  it('names who signed when every signature holds, quietly', () => {
    show({ status: 'intact', signatures: [signature(), signature({ signerName: 'Ravi Iyer' })] });
    const note = screen.getByTestId('signature-state');
    expect(note.getAttribute('data-status')).toBe('intact');
    expect(note.textContent).toContain('Signed before upload: 2 signatures (Asha Rao, Ravi Iyer), intact.');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('alerts that a broken signature no longer holds, naming whose', () => {
    show({ status: 'broken', signatures: [signature({ integrity: 'broken', problem: 'the signed bytes were changed after signing' })] });
    const note = screen.getByTestId('signature-state');
    expect(note.getAttribute('data-status')).toBe('broken');
    expect(note.textContent).toContain('Its signature does not hold');
    expect(note.textContent).toContain('changed after Asha Rao signed it');
  });

  it('alerts that the file was changed after its last signature, counting the changes', () => {
    show({ status: 'changedAfterSigning', signatures: [signature({ coversWholeFile: false, unsignedBytesAfter: 512, revisionsAfter: 2 })] });
    const note = screen.getByTestId('signature-state');
    expect(note.textContent).toContain('Changed after its last signature');
    expect(note.textContent).toContain('2 unsigned changes were added after Asha Rao signed this file.');
  });
});

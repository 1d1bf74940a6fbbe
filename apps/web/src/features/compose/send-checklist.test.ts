import { newTag, type EpakDetail, type Tag } from '@pakt/domain';
import { describe, expect, it } from 'vitest';
import { missingForSend } from './send-checklist';

const DOC = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c60';
const A4 = { width: 595, height: 842, x: 0, y: 0, rotate: 0 as const };
const person = (email: string) => ({
  recipientId: crypto.randomUUID(),
  userId: crypto.randomUUID(),
  email,
  firstName: email.split('@')[0]!,
  lastName: '',
  type: 'external' as const,
  status: 'Pending' as const,
});
const epak = (policy: EpakDetail['signingPolicy'] = 'QUICKSIGN'): Pick<EpakDetail, 'steps' | 'documents' | 'signingPolicy'> => ({
  signingPolicy: policy,
  documents: [{ documentId: DOC, sourceDocumentId: null, name: 'lease.pdf', pageCount: 1, pages: [A4], revisions: 0, signatureState: null }],
  steps: [
    { order: 1, workflowStateId: crypto.randomUUID(), name: 'Review', type: 'REVIEW', recipients: [person('lawyer@example.com')] },
    { order: 2, workflowStateId: crypto.randomUUID(), name: 'Sign', type: 'SIGN', recipients: [person('ravi@example.com'), person('meera@example.com')] },
  ],
});
let serial = 0;
const tag = (type: Tag['type'], email: string | undefined, y: number): Tag =>
  newTag({ uuid: `00000000-0000-4000-8000-0000000000${String(++serial).padStart(2, '0')}`, type, pageNumber: 1, positionX: 40, positionY: y, ...(email ? { userEmail: email, wfsOrderId: 2 } : {}) });
const on = (...tags: Tag[]) => new Map([[DOC, tags]]);

describe('what keeps a draft from being sent', () => {
  it('names every signer without a signature field, and not the reviewer', () => {
    expect(missingForSend(epak(), on(tag('signature', 'ravi@example.com', 100)))).toEqual([{ kind: 'signatureField', email: 'meera@example.com', name: 'meera', stepOrder: 2 }]);
  });

  it('is nothing once each signer has a signature field', () => {
    expect(missingForSend(epak(), on(tag('signature', 'ravi@example.com', 100), tag('signatureText', 'meera@example.com', 200)))).toEqual([]);
  });

  it('names a signature field for someone who does not sign, and counts those for nobody', () => {
    const items = missingForSend(epak(), on(tag('signature', 'ravi@example.com', 100), tag('signature', 'meera@example.com', 200), tag('signature', 'lawyer@example.com', 300), tag('signature', undefined, 400)));
    expect(items).toEqual([
      { kind: 'notInWorkflow', email: 'lawyer@example.com' },
      { kind: 'unassigned', count: 1 },
    ]);
  });

  it("under ESIGNATURE, names each signer whose signature lacks a reason field on that document", () => {
    const tags = on(tag('signature', 'ravi@example.com', 100), tag('reason', 'ravi@example.com', 160), tag('signature', 'meera@example.com', 300));
    expect(missingForSend(epak('ESIGNATURE'), tags)).toEqual([{ kind: 'reasonField', email: 'meera@example.com', name: 'meera', documentName: 'lease.pdf' }]);
    expect(missingForSend(epak('QUICKSIGN'), tags)).toEqual([]);
  });

  it('counts the fields that break a placement rule, per document', () => {
    const overlapping = on(tag('signature', 'ravi@example.com', 100), tag('signature', 'meera@example.com', 110));
    expect(missingForSend(epak(), overlapping)).toEqual([{ kind: 'layout', documentName: 'lease.pdf', count: 2 }]);
  });
});

import { describe, expect, it } from 'vitest';
import { DocumentTemplateName } from './api/document-templates';
import { editEpak } from './api/epak-actions';
import { EpakInput } from './api/epaks';
import { singleLineText, toSingleLine } from './single-line';

describe('toSingleLine', () => {
  it.each([
    ['Offer\r\nBcc: x@y', 'Offer Bcc: x@y'],
    ['a\nb\rc', 'a b c'],
    ['a\r\n\r\n\tb', 'a b'],
    ['a\u000bb\u000cc', 'a b c'],
    ['a\u0085b', 'a b'],
    ['a\u2028b\u2029c', 'a b c'],
    ['nul\u0000del\u007f', 'nul del '],
    ['plain subject – with ünïcode', 'plain subject – with ünïcode'],
  ])('makes %j one line', (text, line) => {
    expect(toSingleLine(text)).toBe(line);
  });
});

describe('subjects in the contracts', () => {
  const draft = { documentIds: [crypto.randomUUID()], steps: [{ workflowStateId: crypto.randomUUID(), recipients: [{ email: 'a@example.test' }] }] };

  it('are stored as one line, trimmed', () => {
    expect(EpakInput.parse({ ...draft, subject: ' Offer\r\nBcc: thief@evil.test\r\n' }).subject).toBe('Offer Bcc: thief@evil.test');
    expect(editEpak.body!.parse({ ePakId: crypto.randomUUID(), modifiedOn: new Date().toISOString(), subject: 'New\nsubject' }).subject).toBe('New subject');
    expect(DocumentTemplateName.parse('Loan\r\nX-Evil: 1')).toBe('Loan X-Evil: 1');
  });

  it('refuse one that is nothing but line breaks, and keep the length limit', () => {
    expect(EpakInput.safeParse({ ...draft, subject: '\r\n\r\n' }).success).toBe(false);
    expect(singleLineText(5).safeParse('abcdef').success).toBe(false);
  });
});

import { QR_PAYLOAD_MAX_BYTES, qrEntriesOf, withQrEntries } from '@pakt/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import en from '../../i18n/en.json';
import { placed, renderEditing } from '../../test/panel-test-harness';
import { QrEditor } from './qr-editor';

const qr = en.tagPanel.qr;
const section = () => screen.getByRole('region', { name: qr.heading });
const labelField = () => within(section()).getByRole('textbox', { name: qr.label });
const valueField = () => within(section()).getByRole('textbox', { name: qr.value });
const type = (field: HTMLElement, text: string) => fireEvent.change(field, { target: { value: text } });
const click = (name: string) => fireEvent.click(within(section()).getByRole('button', { name }));
const alerts = () => within(section()).queryAllByRole('alert').map((alert) => alert.textContent);

function renderQr(entries: { label: string; value: string }[] = []) {
  return renderEditing(withQrEntries(placed('qrcode'), entries), (tag, onChange) => <QrEditor tag={tag} onChange={onChange} />);
}

describe('QrEditor', () => {
  it('adds an entry, stores it in the tag and previews the code', () => {
    const { latest } = renderQr();
    expect(within(section()).getByText(qr.empty)).toBeTruthy();
    expect(screen.queryByTestId('qr-preview')).toBeNull();

    type(labelField(), ' Invoice ');
    type(valueField(), 'INV-42');
    click(qr.add);

    expect(latest().value).toBe('[{"label":"Invoice","value":"INV-42"}]');
    expect(within(section()).getByText('Invoice')).toBeTruthy();
    expect(within(section()).getByText('INV-42')).toBeTruthy();
    expect(screen.getByRole('img', { name: qr.preview })).toBe(screen.getByTestId('qr-preview'));
    // The fields are ready for the next entry.
    expect(labelField()).toHaveProperty('value', '');
    expect(valueField()).toHaveProperty('value', '');
  });

  it('saves with Enter in either field', () => {
    const { latest } = renderQr();
    type(labelField(), 'Amount');
    type(valueField(), '1200');
    fireEvent.keyDown(valueField(), { key: 'Enter' });
    expect(qrEntriesOf(latest())).toEqual([{ label: 'Amount', value: '1200' }]);
  });

  it('refuses a blank label and a blank value with their spec messages, at their fields', () => {
    const { changes } = renderQr();
    type(labelField(), '   ');
    click(qr.add);
    expect(alerts()).toEqual([en.qrLabelBlankValidation, en.qrValueBlankValidation]);
    expect(labelField().getAttribute('aria-invalid')).toBe('true');
    expect(valueField().getAttribute('aria-invalid')).toBe('true');
    expect(changes).toHaveLength(0);

    // Typing in a field clears its message only.
    type(valueField(), 'x');
    expect(alerts()).toEqual([en.qrLabelBlankValidation]);
  });

  it('refuses a label that duplicates another, whatever its case (qrDuplicateValidation)', () => {
    const { changes } = renderQr([{ label: 'Invoice', value: 'INV-42' }]);
    type(labelField(), 'INVOICE ');
    type(valueField(), 'INV-43');
    click(qr.add);
    expect(alerts()).toEqual([en.qrDuplicateValidation]);
    expect(changes).toHaveLength(0);
  });

  it('loads an entry for editing only while the label field is empty (qrEditFieldValidation)', () => {
    const { latest } = renderQr([
      { label: 'Invoice', value: 'INV-42' },
      { label: 'Amount', value: '1200' },
    ]);
    type(labelField(), 'Due date');
    click(qr.edit.replace('{{label}}', 'Invoice'));
    expect(alerts()).toEqual([en.qrEditFieldValidation]);
    // The text being typed is kept.
    expect(labelField()).toHaveProperty('value', 'Due date');

    type(labelField(), '');
    click(qr.edit.replace('{{label}}', 'Invoice'));
    expect(alerts()).toEqual([]);
    expect(labelField()).toHaveProperty('value', 'Invoice');
    expect(valueField()).toHaveProperty('value', 'INV-42');

    // Another entry while this one is loaded: finish first.
    click(qr.edit.replace('{{label}}', 'Amount'));
    expect(alerts()).toEqual([en.qrEditFieldValidation]);

    // Its own label, in another case, is no duplicate; the entry is replaced in place.
    type(labelField(), 'INVOICE');
    type(valueField(), 'INV-43');
    click(qr.save);
    expect(qrEntriesOf(latest())).toEqual([
      { label: 'INVOICE', value: 'INV-43' },
      { label: 'Amount', value: '1200' },
    ]);
    expect(within(section()).getByRole('button', { name: qr.add })).toBeTruthy();
  });

  it('cancels an edit without changing the entry', () => {
    const { changes } = renderQr([{ label: 'Invoice', value: 'INV-42' }]);
    click(qr.edit.replace('{{label}}', 'Invoice'));
    type(valueField(), 'changed');
    click(qr.cancel);
    expect(changes).toHaveLength(0);
    expect(labelField()).toHaveProperty('value', '');
  });

  it('deletes an entry only after confirmation', async () => {
    const { changes, latest } = renderQr([
      { label: 'Invoice', value: 'INV-42' },
      { label: 'Amount', value: '1200' },
    ]);
    click(qr.delete.replace('{{label}}', 'Invoice'));
    let dialog = await screen.findByRole('dialog', { name: qr.confirmTitle });
    expect(within(dialog).getByText(qr.confirmText.replace('{{label}}', 'Invoice'))).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: qr.keep }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(changes).toHaveLength(0);

    click(qr.delete.replace('{{label}}', 'Invoice'));
    dialog = await screen.findByRole('dialog', { name: qr.confirmTitle });
    fireEvent.click(within(dialog).getByRole('button', { name: qr.confirmDelete }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(qrEntriesOf(latest())).toEqual([{ label: 'Amount', value: '1200' }]);
    expect(within(section()).queryByText('Invoice')).toBeNull();
  });

  it('deleting the last entry empties the tag and hides the preview', async () => {
    const { latest } = renderQr([{ label: 'Invoice', value: 'INV-42' }]);
    click(qr.delete.replace('{{label}}', 'Invoice'));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: qr.confirmDelete }));
    await waitFor(() => expect(latest().value).toBeNull());
    expect(screen.queryByTestId('qr-preview')).toBeNull();
  });

  it('refuses more than a scannable code holds', () => {
    const { changes } = renderQr();
    type(labelField(), 'Notes');
    type(valueField(), 'x'.repeat(QR_PAYLOAD_MAX_BYTES));
    click(qr.add);
    expect(alerts()).toEqual([
      qr.payloadTooLong.replace('{{max}}', String(QR_PAYLOAD_MAX_BYTES)).replace('{{bytes}}', String(QR_PAYLOAD_MAX_BYTES + 'Notes: '.length)),
    ]);
    expect(changes).toHaveLength(0);
  });

  it('previews non-Latin text (encoded as UTF-8)', () => {
    renderQr([{ label: 'नाम', value: 'अनीता' }]);
    expect(screen.getByTestId('qr-preview').querySelector('path')?.getAttribute('d')).toMatch(/^M/);
  });
});

import { SMART_FIELD_GROUPS, SMART_TAG_FIELDS, type SmartTagField } from '@pakt/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import en from '../../i18n/en.json';
import hi from '../../i18n/hi.json';
import { i18n } from '../../i18n/i18n';
import { renderWithProviders } from '../../test/panel-test-harness';
import { SmartTagsPicker } from './smart-tags-picker';

const copy = en.tagPanel.smartTags;
const labels = en.tagPanel.smartFields as Record<string, string>;
const labelOf = (field: SmartTagField) => labels[field.labelKey.split('.').pop()!] ?? field.labelKey;
const options = (dialog: HTMLElement) => within(dialog).queryAllByRole('button').filter((button) => button.dataset.key !== undefined);
const search = (dialog: HTMLElement, text: string) => fireEvent.change(within(dialog).getByRole('searchbox', { name: copy.search }), { target: { value: text } });

function open(title = copy.title) {
  const onPick = vi.fn();
  const onClose = vi.fn();
  renderWithProviders(<SmartTagsPicker opened onClose={onClose} onPick={onPick} />);
  return { onPick, onClose, dialog: screen.getByRole('dialog', { name: title }) };
}

describe('SmartTagsPicker', () => {
  it('has a label in both languages for every field and group', () => {
    for (const field of SMART_TAG_FIELDS) {
      expect(i18n.exists(field.labelKey, { lng: 'en' })).toBe(true);
      expect(i18n.exists(field.labelKey, { lng: 'hi' })).toBe(true);
    }
    for (const group of SMART_FIELD_GROUPS) expect(i18n.exists(`tagPanel.smartGroups.${group}`, { lng: 'hi' })).toBe(true);
  });

  it('lists every field under its group, with the search box focused', async () => {
    const { dialog } = open();
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole('searchbox', { name: copy.search })));
    expect(options(dialog).map((option) => option.dataset.key)).toEqual(SMART_TAG_FIELDS.map((field) => field.key));
    const signerGroup = within(dialog).getByRole('region', { name: en.tagPanel.smartGroups.signer });
    expect(within(signerGroup).getAllByRole('button').map((option) => option.dataset.key)).toEqual(
      SMART_TAG_FIELDS.filter((field) => field.group === 'signer').map((field) => field.key),
    );
    const subject = SMART_TAG_FIELDS[0]!;
    expect(within(dialog).getByRole('button', { name: new RegExp(labelOf(subject)) }).textContent).toContain(subject.key);
  });

  it('filters by label or key, ignoring case, and hides groups left empty', () => {
    const { dialog } = open();
    search(dialog, 'EMAIL');
    expect(options(dialog).map((option) => option.dataset.key)).toEqual(['epak.custodianEmail', 'signer.email']);
    expect(within(dialog).queryByRole('region', { name: en.tagPanel.smartGroups.document })).toBeNull();

    search(dialog, 'document.uuid');
    expect(options(dialog).map((option) => option.dataset.key)).toEqual(['document.uuid']);
  });

  it('says so when nothing matches', () => {
    const { dialog } = open();
    search(dialog, 'zebra');
    expect(options(dialog)).toEqual([]);
    expect(within(dialog).getByRole('status').textContent).toBe(copy.empty.replace('{{query}}', 'zebra'));
  });

  it('hands the picked field over, then closes', () => {
    const { dialog, onPick, onClose } = open();
    search(dialog, 'department');
    fireEvent.click(within(dialog).getByRole('button', { name: new RegExp(labels.signerDepartment!) }));
    expect(onPick).toHaveBeenCalledExactlyOnceWith(SMART_TAG_FIELDS.find((field) => field.key === 'signer.department'));
    expect(onClose).toHaveBeenCalledOnce();
    expect(onPick.mock.invocationCallOrder[0]).toBeLessThan(onClose.mock.invocationCallOrder[0]!);
  });

  it('searches the labels of the language shown', async () => {
    await i18n.changeLanguage('hi');
    const { dialog } = open(hi.tagPanel.smartTags.title);
    fireEvent.change(within(dialog).getByRole('searchbox', { name: hi.tagPanel.smartTags.search }), { target: { value: 'विभाग' } });
    expect(options(dialog).map((option) => option.dataset.key)).toEqual(['signer.department']);
  });
});

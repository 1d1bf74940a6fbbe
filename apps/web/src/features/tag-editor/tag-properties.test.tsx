import { DEFAULT_TAG_FONT_SIZE, FONT_SIZE_LIMITS, SUPPORTED_FONTS, TAG_DIMENSIONS, type Tag } from '@pakt/domain';
import { fireEvent, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import en from '../../i18n/en.json';
import hi from '../../i18n/hi.json';
import { i18n } from '../../i18n/i18n';
import { A4, placed, renderEditing, renderWithProviders } from '../../test/panel-test-harness';
import type { SignerOption } from './signers';
import { TagProperties } from './tag-properties';

const copy = en.tagPanel;
const fill = (template: string, values: Record<string, string | number>) =>
  Object.entries(values).reduce((text, [name, value]) => text.replaceAll(`{{${name}}}`, String(value)), template);

const signers: SignerOption[] = [
  { key: '1|anita@example.com', email: 'anita@example.com', userId: 'u-anita', name: 'Anita Rao', stepOrder: 1, stepName: 'Sign' },
  { key: '2|bo@example.com', email: 'bo@example.com', userId: 'u-bo', name: 'Bo Chen', stepOrder: 2, stepName: 'Approve' },
];

function renderPanel(initial: Tag, onDelete = vi.fn()) {
  const rendered = renderEditing(initial, (tag, onChange) => <TagProperties tag={tag} page={A4} signers={signers} onChange={onChange} onDelete={onDelete} />);
  return { ...rendered, onDelete, panel: screen.getByRole('region', { name: copy.title }) };
}

const field = (name: string) => within(screen.getByRole('region', { name: copy.title })).getByRole('textbox', { name });
const select = (name: string) => within(screen.getByRole('region', { name: copy.title })).getByRole('combobox', { name }) as HTMLSelectElement;
const commit = (input: HTMLElement, value: string) => {
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
};

describe('TagProperties', () => {
  it('shows the type, read-only, and the label, committed on leaving the field', () => {
    const { latest, changes } = renderPanel(placed('text'));
    expect(field(copy.type)).toHaveProperty('value', en.tagEditor.types.text);
    expect(field(copy.type)).toHaveProperty('readOnly', true);
    fireEvent.change(field(copy.label), { target: { value: ' Full name ' } });
    expect(changes).toHaveLength(0);
    fireEvent.keyDown(field(copy.label), { key: 'Enter' });
    expect(latest().label).toBe('Full name');
  });

  it('assigns the tag to a signer and back to nobody', () => {
    const { latest } = renderPanel(placed('text'));
    expect(select(copy.signer).value).toBe('');
    fireEvent.change(select(copy.signer), { target: { value: '2|bo@example.com' } });
    expect(latest()).toMatchObject({ userEmail: 'bo@example.com', userUuid: 'u-bo', wfsOrderId: 2 });
    expect(select(copy.signer).value).toBe('2|bo@example.com');
    expect(within(select(copy.signer)).getByRole('option', { name: 'Bo Chen · Approve' })).toBeTruthy();
    fireEvent.change(select(copy.signer), { target: { value: '' } });
    expect(latest().userEmail).toBeUndefined();
    expect(latest().wfsOrderId).toBeUndefined();
  });

  it('keeps showing a signer who is no longer among the recipients', () => {
    renderPanel(placed('text', { userEmail: 'gone@example.com', wfsOrderId: 3 }));
    expect(select(copy.signer).selectedOptions[0]?.textContent).toBe('gone@example.com');
  });

  it('sets who fills the tag in and its category', () => {
    const { panel, latest } = renderPanel(placed('text'));
    expect(within(select(copy.role)).getAllByRole('option').map((option) => option.textContent)).toEqual(Object.values(copy.roles));
    fireEvent.change(select(copy.role), { target: { value: 'custodianOrSigner' } });
    expect(latest().tagFor).toBe('custodianOrSigner');
    fireEvent.click(within(panel).getByRole('radio', { name: copy.categories.nonPrinted }));
    expect(latest().category).toBe('nonPrinted');
  });

  describe('size', () => {
    const limits = TAG_DIMENSIONS.text; // 20 × 12 to 500 × 200
    const hint = fill(copy.sizeHint, { minWidth: limits.min.width, minHeight: limits.min.height, maxWidth: limits.max.width, maxHeight: limits.max.height });

    it('shows the limits and resizes within them', () => {
      const { panel, latest } = renderPanel(placed('text'));
      expect(within(panel).getByText(hint)).toBeTruthy();
      commit(field(copy.width), '200');
      expect(latest()).toMatchObject({ blockWidth: 200, blockHeight: limits.height, positionX: 100, positionY: 100 });
      expect(latest().blockBounds?.widthRatio).toBeCloseTo(200 / A4.width);
      fireEvent.change(field(copy.height), { target: { value: '40' } });
      fireEvent.keyDown(field(copy.height), { key: 'Enter' });
      expect(latest().blockHeight).toBe(40);
      expect(within(panel).queryByRole('alert')).toBeNull();
    });

    it('refuses a size beyond the limits: the values go back and the message gives the limits', () => {
      // At x = 10 a 520 pt wide field still fits on the page: only the size limit refuses it.
      const { panel, changes } = renderPanel(placed('text', { positionX: 10 }));
      commit(field(copy.width), '520');
      expect(changes).toHaveLength(0);
      expect(field(copy.width)).toHaveProperty('value', String(limits.width));
      expect(within(panel).getByRole('alert').textContent).toBe(
        fill(en.tagDimensionsCrossedMsg, { minWidth: limits.min.width, minHeight: limits.min.height, maxWidth: limits.max.width, maxHeight: limits.max.height }),
      );

      commit(field(copy.height), '5');
      expect(field(copy.height)).toHaveProperty('value', String(limits.height));
      expect(changes).toHaveLength(0);

      // A size that is accepted clears the message.
      commit(field(copy.width), '150');
      expect(within(panel).queryByRole('alert')).toBeNull();
      expect(changes).toHaveLength(1);
    });

    it('refuses a size that would leave the page', () => {
      const { panel, changes } = renderPanel(placed('text', { positionX: 450 }));
      commit(field(copy.width), '150');
      expect(changes).toHaveLength(0);
      expect(within(panel).getByRole('alert').textContent).toBe(fill(en.tagOutsidePage, { pageNumber: 1 }));
    });

    it('refuses a blank size: width and height must be set', () => {
      const { panel, changes } = renderPanel(placed('text'));
      commit(field(copy.height), '');
      expect(changes).toHaveLength(0);
      expect(within(panel).getByRole('alert').textContent).toBe(en.tagSizeMissing);
      expect(field(copy.height)).toHaveProperty('value', String(limits.height));
    });
  });

  describe('font', () => {
    it('is offered for text-like tags only', () => {
      renderPanel(placed('signature'));
      expect(screen.queryByRole('textbox', { name: copy.fontSize })).toBeNull();
      expect(screen.queryByRole('combobox', { name: copy.fontFamily })).toBeNull();
    });

    it('sets size, weight, style and family', () => {
      const { panel, latest } = renderPanel(placed('text'));
      expect(field(copy.fontSize)).toHaveProperty('value', String(DEFAULT_TAG_FONT_SIZE));
      expect(within(panel).getByText(fill(copy.fontSizeHint, { minFontSize: FONT_SIZE_LIMITS.min, maxFontSize: FONT_SIZE_LIMITS.max }))).toBeTruthy();
      commit(field(copy.fontSize), '16');
      expect(latest().fontSize).toBe(16);
      fireEvent.click(within(panel).getByRole('radio', { name: copy.fontWeights.bold }));
      expect(latest().fontWeight).toBe('bold');
      fireEvent.click(within(panel).getByRole('radio', { name: copy.fontStyles.italic }));
      expect(latest().fontStyle).toBe('italic');
      expect(within(select(copy.fontFamily)).getAllByRole('option').map((option) => option.textContent)).toEqual(SUPPORTED_FONTS.map((font) => font.name));
      fireEvent.change(select(copy.fontFamily), { target: { value: 'Noto Sans Devanagari' } });
      expect(latest().fontFamily).toBe('Noto Sans Devanagari');
    });

    it("refuses a size outside the tag's limits with the font-size message", () => {
      const { panel, changes } = renderPanel(placed('text', { max: { fontSize: 20 } }));
      commit(field(copy.fontSize), '24');
      expect(changes).toHaveLength(0);
      expect(field(copy.fontSize)).toHaveProperty('value', String(DEFAULT_TAG_FONT_SIZE));
      expect(within(panel).getByRole('alert').textContent).toBe(fill(en.tagDimensionsCrossedMsg_fontSize, { minFontSize: FONT_SIZE_LIMITS.min, maxFontSize: 20 }));
    });
  });

  it("switches the required message between optional and mandatory", () => {
    const { panel, latest } = renderPanel(placed('text'));
    const toggle = within(panel).getByRole('switch', { name: copy.required });
    expect(within(panel).getByText(copy.optionalMessage)).toBeTruthy();
    fireEvent.click(toggle);
    expect(latest().validations?.required).toEqual({ value: true, message: copy.mandatoryMessage });
    expect(within(panel).getByText(copy.mandatoryMessage)).toBeTruthy();
    expect(within(panel).queryByText(copy.optionalMessage)).toBeNull();
    fireEvent.click(toggle);
    expect(latest().validations?.required).toEqual({ value: false, message: copy.optionalMessage });
    expect(within(panel).getByText(copy.optionalMessage)).toBeTruthy();
  });

  it.each([
    ['qrcode', copy.qr.heading],
    ['letterHead', copy.letterhead.heading],
    ['image', copy.image.heading],
    ['singleSelect', copy.options.heading],
    ['multiSelect', copy.options.heading],
  ] as const)('shows the %s editor', (type, heading) => {
    const { panel } = renderPanel(placed(type));
    expect(within(panel).getByRole('region', { name: heading })).toBeTruthy();
  });

  it("binds an image tag's maximum upload, shown by its uploader", () => {
    const { panel, latest } = renderPanel(placed('image'));
    expect(field(copy.maxUpload)).toHaveProperty('value', '500');
    commit(field(copy.maxUpload), '200');
    expect(latest().maxUpload).toBe(200);
    expect(within(panel).getByText('Maximum size: 200 KB')).toBeTruthy();
    commit(field(copy.maxUpload), '0');
    expect(latest().maxUpload).toBe(200);
    expect(field(copy.maxUpload)).toHaveProperty('value', '200');
    expect(within(panel).getByRole('alert').textContent).toBe(copy.maxUploadInvalid);
  });

  it('edits the options of a select: no blanks, no repeats', () => {
    const { panel, latest } = renderPanel(placed('singleSelect'));
    const options = within(panel).getByRole('region', { name: copy.options.heading });
    const add = (text: string) => {
      fireEvent.change(within(options).getByRole('textbox', { name: copy.options.new }), { target: { value: text } });
      fireEvent.click(within(options).getByRole('button', { name: copy.options.add }));
    };
    add('   ');
    expect(within(options).getByRole('alert').textContent).toBe(copy.options.blank);
    add('Yes');
    add('No');
    expect(latest().dataSource).toBe('["Yes","No"]');
    add('yes');
    expect(within(options).getByRole('alert').textContent).toBe(copy.options.duplicate);
    fireEvent.click(within(options).getByRole('button', { name: fill(copy.options.remove, { option: 'Yes' }) }));
    expect(latest().dataSource).toBe('["No"]');
  });

  it('speaks Hindi, the required message included', async () => {
    await i18n.changeLanguage('hi');
    const { latest } = renderEditing(placed('text'), (tag, onChange) => <TagProperties tag={tag} page={A4} signers={signers} onChange={onChange} onDelete={vi.fn()} />);
    const panel = screen.getByRole('region', { name: hi.tagPanel.title });
    expect(within(panel).getByRole('textbox', { name: hi.tagPanel.type })).toHaveProperty('value', hi.tagEditor.types.text);
    fireEvent.click(within(panel).getByRole('switch', { name: hi.tagPanel.required }));
    expect(latest().validations?.required).toEqual({ value: true, message: hi.tagPanel.mandatoryMessage });
  });

  it('deletes at once', () => {
    const { panel, onDelete } = renderPanel(placed('text'));
    fireEvent.click(within(panel).getByRole('button', { name: copy.delete }));
    expect(onDelete).toHaveBeenCalledOnce();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('follows a change made elsewhere (a drag, an undo) and starts afresh for another tag', () => {
    const first = placed('text', { positionX: 10 });
    const second = placed('text');
    function Editor() {
      const [tags, setTags] = useState([first, second]);
      const [selected, setSelected] = useState(0);
      const tag = tags[selected]!;
      const replace = (next: Tag) => setTags((current) => current.map((other) => (other.uuid === next.uuid ? next : other)));
      return (
        <>
          <button type="button" onClick={() => replace({ ...tag, blockWidth: 300 })}>
            drag
          </button>
          <button type="button" onClick={() => setSelected(1)}>
            other
          </button>
          <TagProperties tag={tag} page={A4} signers={signers} onChange={replace} onDelete={vi.fn()} />
        </>
      );
    }
    renderWithProviders(<Editor />);
    fireEvent.click(screen.getByRole('button', { name: 'drag' }));
    expect(field(copy.width)).toHaveProperty('value', '300');

    commit(field(copy.width), '520');
    expect(screen.getByRole('alert')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'other' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(field(copy.width)).toHaveProperty('value', String(TAG_DIMENSIONS.text.width));
  });
});

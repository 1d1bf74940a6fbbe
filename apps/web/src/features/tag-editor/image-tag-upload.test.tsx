import { IMAGE_TAG_DEFAULT_MAX_KB } from '@pakt/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import en from '../../i18n/en.json';
import { ImageTagUpload, imageTagMaxKb } from './image-tag-upload';
import { imageFile, placed, renderEditing } from '../../test/panel-test-harness';

const copy = en.tagPanel.image;
const section = () => screen.getByRole('region', { name: copy.heading });
const pick = (file: File) => fireEvent.change(section().querySelector('input[type="file"]')!, { target: { files: [file] } });

function renderImage(maxUpload?: number) {
  return renderEditing({ ...placed('image'), ...(maxUpload !== undefined && { maxUpload }) }, (tag, onChange) => <ImageTagUpload tag={tag} onChange={onChange} />);
}

describe('ImageTagUpload', () => {
  it('shows the default maximum size in KB', () => {
    renderImage();
    expect(within(section()).getByText(`Maximum size: ${IMAGE_TAG_DEFAULT_MAX_KB} KB`)).toBeTruthy();
    expect(imageTagMaxKb({})).toBe(IMAGE_TAG_DEFAULT_MAX_KB);
  });

  it("shows the tag's own maximum and refuses a larger file with maxSizeExceeded", async () => {
    const { changes, latest } = renderImage(20);
    expect(within(section()).getByText('Maximum size: 20 KB')).toBeTruthy();
    pick(imageFile('photo.png', { type: 'image/png', size: 20 * 1024 + 1 }));
    expect((await within(section()).findByRole('alert')).textContent).toBe(en.maxSizeExceeded);
    expect(changes).toHaveLength(0);

    pick(imageFile('photo.png', { type: 'image/png', size: 20 * 1024 }));
    await waitFor(() => expect(String(latest().value)).toMatch(/^data:image\/png;base64,/));
    expect(within(section()).getByRole('img', { name: copy.preview }).getAttribute('src')).toBe(latest().value);
  });

  it('takes a JPEG named .jpeg as a jpg', async () => {
    const { latest } = renderImage();
    pick(imageFile('photo.jpeg', { type: 'image/jpeg', content: 'jpeg' }));
    await waitFor(() => expect(String(latest().value)).toMatch(/^data:image\/jpeg;base64,/));
  });

  it.each([imageFile('photo.gif', { type: 'image/gif' }), imageFile('photo.webp', { type: 'image/webp' }), imageFile('photo.jpg', { type: 'image/jpeg', content: 'png' })])(
    'refuses $name as not png or jpg',
    async (file) => {
      const { changes } = renderImage();
      pick(file);
      expect((await within(section()).findByRole('alert')).textContent).toBe(copy.wrongType);
      expect(changes).toHaveLength(0);
    },
  );

  it('removes the image', () => {
    const { latest } = renderEditing({ ...placed('image'), value: 'data:image/jpeg;base64,/9j/4A==' }, (tag, onChange) => (
      <ImageTagUpload tag={tag} onChange={onChange} />
    ));
    fireEvent.click(within(section()).getByRole('button', { name: en.tagPanel.upload.remove }));
    expect(latest().value).toBeNull();
  });
});

import { IMAGE_TAG_FILE_TYPES, LETTERHEAD_IMAGE_TYPES, LETTERHEAD_MAX_SIZE_BYTES } from '@pakt/domain';
import { describe, expect, it } from 'vitest';
import { acceptOf, imageFileProblem, kilobytes, readImageFile, sniffImageFormat, type ImageFileRule } from './image-file';
import { imageFile } from '../test/panel-test-harness';

const letterhead: ImageFileRule = { types: LETTERHEAD_IMAGE_TYPES, maxBytes: LETTERHEAD_MAX_SIZE_BYTES };
const imageTag: ImageFileRule = { types: IMAGE_TAG_FILE_TYPES, maxBytes: kilobytes(20) };

describe('imageFileProblem', () => {
  it.each([
    [{ name: 'head.png', type: 'image/png', size: 10 }, null],
    [{ name: 'head.JPG', type: 'image/jpeg', size: 10 }, null],
    [{ name: 'head.jpeg', type: 'image/jpeg', size: LETTERHEAD_MAX_SIZE_BYTES }, null],
    // Some browsers declare a JPEG as image/jpg or image/pjpeg.
    [{ name: 'head.jpg', type: 'image/pjpeg', size: 10 }, null],
    // No declared type: the extension (and later the bytes) decide.
    [{ name: 'head.png', type: '', size: 10 }, null],
    [{ name: 'head.png', type: 'image/png', size: LETTERHEAD_MAX_SIZE_BYTES + 1 }, 'tooLarge'],
    [{ name: 'head.gif', type: 'image/gif', size: 10 }, 'wrongType'],
    [{ name: 'head', type: 'image/png', size: 10 }, 'wrongType'],
    [{ name: 'head.constructor', type: '', size: 10 }, 'wrongType'],
    // The extension and the declared type must agree.
    [{ name: 'head.png', type: 'image/jpeg', size: 10 }, 'wrongType'],
    [{ name: 'head.jpg', type: 'application/pdf', size: 10 }, 'wrongType'],
    // A wrong kind is said before a wrong size.
    [{ name: 'head.pdf', type: 'application/pdf', size: LETTERHEAD_MAX_SIZE_BYTES * 3 }, 'wrongType'],
  ] as const)('letterhead %o → %s', (file, problem) => {
    expect(imageFileProblem(file, letterhead)).toBe(problem);
  });

  it('takes a .jpeg for an image tag, whose rule lists only png and jpg', () => {
    expect(imageFileProblem({ name: 'photo.jpeg', type: 'image/jpeg', size: 10 }, imageTag)).toBeNull();
    expect(imageFileProblem({ name: 'photo.png', type: 'image/png', size: kilobytes(20) + 1 }, imageTag)).toBe('tooLarge');
  });

  it('refuses a format the rule does not list', () => {
    expect(imageFileProblem({ name: 'photo.jpg', type: 'image/jpeg', size: 10 }, { types: ['png'], maxBytes: 100 })).toBe('wrongType');
  });
});

describe('acceptOf', () => {
  it('offers the types and every extension of the admitted formats', () => {
    expect(acceptOf(letterhead)).toBe('image/png,image/jpeg,.png,.jpg,.jpeg');
    expect(acceptOf(imageTag)).toBe('image/png,image/jpeg,.png,.jpg,.jpeg');
    expect(acceptOf({ types: ['png'] })).toBe('image/png,.png');
  });
});

describe('sniffImageFormat', () => {
  it('knows PNG and JPEG by their first bytes', () => {
    expect(sniffImageFormat(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe('png');
    expect(sniffImageFormat(new Uint8Array([0xff, 0xd8, 0xff, 0xdb]))).toBe('jpeg');
    expect(sniffImageFormat(new Uint8Array([0x25, 0x50, 0x44, 0x46]))).toBeNull();
    expect(sniffImageFormat(new Uint8Array([0x89, 0x50]))).toBeNull();
  });
});

describe('readImageFile', () => {
  it('answers a data URL of the format the bytes are in', async () => {
    const read = await readImageFile(imageFile('head.png', { type: 'image/png', size: 10 }), letterhead);
    expect(read).toEqual({ ok: true, format: 'png', dataUrl: 'data:image/png;base64,iVBORw0KGgoAAA==' });
    const jpeg = await readImageFile(imageFile('photo.jpeg', { content: 'jpeg' }), imageTag);
    expect(jpeg.ok && jpeg.dataUrl.startsWith('data:image/jpeg;base64,/9j/')).toBe(true);
  });

  it('encodes a large file whole', async () => {
    const read = await readImageFile(imageFile('head.png', { size: 300_000 }), letterhead);
    expect(read.ok && atob(read.dataUrl.split(',')[1]!).length).toBe(300_000);
  });

  it('refuses a file whose bytes are not what its name and type say', async () => {
    expect(await readImageFile(imageFile('contract.png', { type: 'image/png', content: 'pdf' }), letterhead)).toEqual({ ok: false, problem: 'wrongType' });
    expect(await readImageFile(imageFile('photo.png', { content: 'jpeg' }), letterhead)).toEqual({ ok: false, problem: 'wrongType' });
  });

  it('refuses before reading what the name or size rules out', async () => {
    expect(await readImageFile(imageFile('photo.gif'), letterhead)).toEqual({ ok: false, problem: 'wrongType' });
    expect(await readImageFile(imageFile('big.png', { size: kilobytes(20) + 1 }), imageTag)).toEqual({ ok: false, problem: 'tooLarge' });
  });
});

import { newTag, type NewTagInit, type PageGeometry, type Tag } from '@pakt/domain';
import { render } from '@testing-library/react';
import { useState, type ReactNode } from 'react';
import { createQueryClient } from '../api/query-client';
import { AppProviders } from '../app/providers';

/** Test support for the tag panel's components (imported by tests only, never by the app). */

/** An A4 page, unrotated. */
export const A4: PageGeometry = { width: 595, height: 842, x: 0, y: 0, rotate: 0 };

let counter = 0;

/** A freshly placed tag of the type's default size at (100, 100) on page 1. */
export function placed(type: Tag['type'], init: Partial<NewTagInit> = {}): Tag {
  counter += 1;
  return newTag({ uuid: `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`, type, pageNumber: 1, positionX: 100, positionY: 100, ...init });
}

/**
 * Renders a component that edits a tag as the editor would hold it: every onChange becomes the
 * tag shown next, and is recorded.
 */
export function renderEditing(initial: Tag, ui: (tag: Tag, onChange: (next: Tag) => void) => ReactNode) {
  const changes: Tag[] = [];
  function Host() {
    const [tag, setTag] = useState(initial);
    return ui(tag, (next) => {
      changes.push(next);
      setTag(next);
    });
  }
  const rendered = render(
    <AppProviders queryClient={createQueryClient()} env="test">
      <Host />
    </AppProviders>,
  );
  return { ...rendered, changes, latest: () => changes.at(-1) ?? initial };
}

/** Renders anything inside the app's providers. */
export function renderWithProviders(ui: ReactNode) {
  return render(
    <AppProviders queryClient={createQueryClient()} env="test">
      {ui}
    </AppProviders>,
  );
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_SIGNATURE = [0xff, 0xd8, 0xff, 0xe0];

/** A file of `size` bytes starting with a PNG or JPEG signature (or none), as a picker gives it. */
export function imageFile(name: string, options: { type?: string; size?: number; content?: 'png' | 'jpeg' | 'pdf' } = {}): File {
  const size = options.size ?? 64;
  const bytes = new Uint8Array(size);
  const head = options.content === 'jpeg' ? JPEG_SIGNATURE : options.content === 'pdf' ? [...'%PDF-1.7'].map((c) => c.charCodeAt(0)) : PNG_SIGNATURE;
  bytes.set(head.slice(0, size));
  return new File([bytes], name, { type: options.type ?? '' });
}

import { Popover } from '@mantine/core';
import { isFilledValue, type Rect, type TagValue } from '@pakt/domain';
import { useState, type CSSProperties, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SIGNATURE_FONT } from './signature-image';
import type { ValueKind } from './signing-tags';

/**
 * How a tag shows on the page during signing:
 * - editable: the signer's own field, waiting for (or holding) their value;
 * - server: theirs, but the server fills it when they sign (time stamp, UUIDs);
 * - pending: someone else's field, not filled yet;
 * - sealed: already in the PDF (an earlier signature drew it): nothing is drawn over it;
 * - content: the custodian's own content (QR code, letterhead, an image they supplied).
 */
export type TagPresentation = 'editable' | 'server' | 'pending' | 'sealed' | 'content';

/** Only a plain base64 PNG or JPEG goes into an <img> src (anything else is not ours to show). */
const IMAGE_DATA_URL = /^data:image\/(png|jpeg);base64,[A-Za-z0-9+/]*={0,2}$/;

export interface SigningTagProps {
  readonly uuid: string;
  readonly kind: ValueKind;
  readonly presentation: TagPresentation;
  readonly shown: Rect;
  readonly zoom: number;
  readonly fontSize: number;
  readonly value: TagValue;
  readonly required: boolean;
  /** Named by a refusal of the server (-6), or left empty when signing was tried. */
  readonly highlighted: boolean;
  /** The accessible name: what the field is, whose, and its state. */
  readonly label: string;
  /** The short text shown in an empty box. */
  readonly placeholder: string;
  readonly opened: boolean;
  readonly onClick: () => void;
  /** The field got the focus (Tab, a click, the guide): where the guide goes on from. */
  readonly onFocus?: () => void;
  readonly onClose: () => void;
  readonly editor: ReactNode;
}

/** WCAG 2.5.8: a pointer target is at least 24 x 24 CSS px, whatever the zoom makes of the box. */
const MIN_TARGET = 24;

/** A visible focus (WCAG 2.4.7, 2.4.13): 3 px of dark indigo (over 7:1 on white) off the box's edge. */
const FOCUS_RING: CSSProperties = { outline: '3px solid var(--mantine-color-indigo-9)', outlineOffset: 2, boxShadow: '0 0 0 2px var(--mantine-color-white)' };

function colours(presentation: TagPresentation, filled: boolean, required: boolean, highlighted: boolean) {
  if (highlighted) return { border: '2px solid var(--mantine-color-red-7)', background: 'color-mix(in srgb, var(--mantine-color-red-2) 55%, transparent)' };
  switch (presentation) {
    case 'editable':
      return filled
        ? { border: '1px solid var(--mantine-color-teal-6)', background: 'color-mix(in srgb, var(--mantine-color-teal-1) 35%, transparent)' }
        : required
          ? { border: '2px solid var(--mantine-color-yellow-7)', background: 'color-mix(in srgb, var(--mantine-color-yellow-2) 70%, transparent)' }
          : { border: '1px dashed var(--mantine-color-blue-6)', background: 'color-mix(in srgb, var(--mantine-color-blue-1) 60%, transparent)' };
    case 'server':
      return { border: '1px dashed var(--mantine-color-gray-6)', background: 'color-mix(in srgb, var(--mantine-color-gray-1) 70%, transparent)' };
    case 'pending':
      return { border: '1px dashed var(--mantine-color-gray-5)', background: 'color-mix(in srgb, var(--mantine-color-gray-2) 40%, transparent)' };
    case 'content':
    case 'sealed':
      return { border: 'none', background: 'transparent' };
  }
}

function shownValue(value: TagValue): string {
  if (Array.isArray(value)) return value.join(', ');
  return value ?? '';
}

/**
 * One tag over its page while signing. The signer's own fields are buttons (real ones: in the tab
 * order where they stand on the page, named for a screen reader, opened with Enter or Space): a
 * click fills a signature, initials or name at once, or opens the field's input beside it.
 * Everything else is shown for orientation only.
 */
export function SigningTag(props: SigningTagProps) {
  const { t } = useTranslation();
  const [focused, setFocused] = useState(false);
  const { shown, presentation, value } = props;
  const filled = isFilledValue(value);
  const image = typeof value === 'string' && IMAGE_DATA_URL.test(value) ? value : null;
  const palette = colours(presentation, filled, props.required, props.highlighted);
  const fontSize = Math.max(7, Math.min(props.fontSize * props.zoom, shown.height * 0.7));
  const small = shown.height < 22 || shown.width < 70;

  const style: CSSProperties = {
    position: 'absolute',
    left: shown.x,
    top: shown.y,
    width: shown.width,
    height: shown.height,
    boxSizing: 'border-box',
    border: palette.border,
    background: palette.background,
    borderRadius: 2,
    margin: 0,
    font: 'inherit',
    textAlign: 'start',
    overflow: 'hidden',
    display: 'flex',
    alignItems: 'center',
    justifyContent: image ? 'center' : 'flex-start',
    padding: image ? 1 : '0 3px',
    color: 'var(--mantine-color-black)',
    fontSize,
    lineHeight: 1.1,
    zIndex: props.opened ? 3 : 1,
  };

  const content = image ? (
    <img src={image} alt="" style={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain', pointerEvents: 'none' }} />
  ) : filled ? (
    <span style={{ whiteSpace: props.kind === 'textArea' ? 'pre-wrap' : 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis', fontFamily: props.kind === 'typedName' ? SIGNATURE_FONT : undefined }}>
      {shownValue(value)}
    </span>
  ) : (
    <span style={{ whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis', fontSize: Math.min(fontSize, small ? 9 : 11), fontWeight: presentation === 'editable' ? 600 : 400, opacity: presentation === 'editable' ? 1 : 0.75 }}>
      {props.placeholder}
      {presentation === 'editable' && props.required && <span aria-hidden> *</span>}
    </span>
  );

  if (presentation !== 'editable') {
    if (presentation === 'sealed') return null;
    return (
      <div role="note" aria-label={props.label} title={props.label} data-testid="signing-tag" data-tag-uuid={props.uuid} data-presentation={presentation} style={{ ...style, pointerEvents: 'auto' }} onClick={(event) => event.stopPropagation()}>
        {content}
      </div>
    );
  }

  // A box smaller than a finger gets an invisible hit area around it: the box itself, drawn at
  // the tag's place, keeps its size so it stays aligned with the page.
  const smallTarget = shown.width < MIN_TARGET || shown.height < MIN_TARGET;
  return (
    <Popover opened={props.opened} onClose={props.onClose} position="bottom-start" withArrow shadow="md" trapFocus returnFocus closeOnEscape>
      <Popover.Target>
        <button
          type="button"
          // Redundant for a button, and kept: journeys and tools look fields up by it.
          role="button"
          aria-label={props.label}
          aria-haspopup="dialog"
          aria-expanded={props.opened}
          aria-invalid={props.highlighted || undefined}
          title={props.label}
          data-testid="signing-tag"
          data-tag-uuid={props.uuid}
          data-field-uuid={props.uuid}
          data-presentation={presentation}
          data-filled={filled ? 'true' : undefined}
          data-focused={focused || undefined}
          style={{ ...style, overflow: smallTarget ? 'visible' : 'hidden', padding: smallTarget ? 0 : style.padding, cursor: 'pointer', ...(focused ? FOCUS_RING : {}) }}
          onFocus={() => {
            setFocused(true);
            props.onFocus?.();
          }}
          onBlur={() => setFocused(false)}
          onClick={(event) => {
            // The page under the box must not see the click.
            event.stopPropagation();
            props.onClick();
          }}
          onKeyDown={(event) => {
            // Handled here, not left to the browser's click, so a held key does not repeat it.
            if (event.key !== 'Enter' && event.key !== ' ') return;
            event.preventDefault();
            if (!event.repeat) props.onClick();
          }}
          onKeyUp={(event) => {
            // Space would click on release: it already acted on the way down.
            if (event.key === ' ') event.preventDefault();
          }}
        >
          {smallTarget ? (
            <>
              <span aria-hidden style={{ position: 'absolute', left: '50%', top: '50%', width: `max(100%, ${MIN_TARGET}px)`, height: `max(100%, ${MIN_TARGET}px)`, transform: 'translate(-50%, -50%)' }} />
              <span style={{ display: 'flex', alignItems: 'center', justifyContent: style.justifyContent, width: '100%', height: '100%', overflow: 'hidden', padding: style.padding }}>{content}</span>
            </>
          ) : (
            content
          )}
        </button>
      </Popover.Target>
      <Popover.Dropdown
        aria-label={t('signing.fields.editorLabel', { field: props.label })}
        role="dialog"
        // Rendered in a portal, yet React bubbles its clicks up to the page it sits on, whose click
        // closes the open field: a click inside the editor must stay there.
        onClick={(event) => event.stopPropagation()}
      >
        {props.editor}
      </Popover.Dropdown>
    </Popover>
  );
}

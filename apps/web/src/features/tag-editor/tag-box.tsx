import { LETTERHEAD_TAG_BORDER_WIDTH, TAG_BORDER_WIDTH, type Rect, type TagColour } from '@pakt/domain';
import type { MantineColor } from '@mantine/core';
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';

/** Below this many CSS px a press is a click, not a drag (a hand never holds perfectly still). */
const DRAG_THRESHOLD = 3;
const HANDLE_SIZE = 12;

export interface TagBoxProps {
  readonly uuid: string;
  /** Where the tag shows on its page, display frame (CSS px from the shown page's top-left). */
  readonly shown: Rect;
  readonly label: string;
  readonly typeName: string;
  readonly initials: string;
  readonly signerColour: MantineColor;
  readonly colourRole: TagColour;
  readonly selected: boolean;
  readonly thinBorder: boolean;
  /** An image or letterhead the custodian uploaded: shown in the box, as it will be stamped. */
  readonly imageUrl?: string | undefined;
  readonly onSelect: () => void;
  /** A drag ended with the box's top-left corner at `corner` and the pointer at `pointer` (client px). */
  readonly onMoveEnd: (corner: { x: number; y: number }, pointer: { x: number; y: number }) => void;
  /** The bottom-right handle was dragged: the new display-frame rectangle on the same page. */
  readonly onResizeEnd: (shown: Rect) => void;
  readonly onKeyDown: (event: KeyboardEvent<HTMLDivElement>) => void;
}

interface Gesture {
  readonly mode: 'move' | 'resize';
  readonly pointerId: number;
  readonly startX: number;
  readonly startY: number;
  readonly left: number;
  readonly top: number;
  dragging: boolean;
}

function palette(role: TagColour, signer: MantineColor) {
  switch (role) {
    case 'selected':
      return { border: 'var(--mantine-primary-color-filled)', fill: 'color-mix(in srgb, var(--mantine-primary-color-filled) 22%, transparent)', stripe: `var(--mantine-color-${signer}-6)` };
    case 'invalid':
      return { border: 'var(--mantine-color-red-7)', fill: 'color-mix(in srgb, var(--mantine-color-red-6) 22%, transparent)', stripe: 'var(--mantine-color-red-7)' };
    case 'configured':
      return { border: `var(--mantine-color-${signer}-7)`, fill: `color-mix(in srgb, var(--mantine-color-${signer}-4) 28%, transparent)`, stripe: `var(--mantine-color-${signer}-6)` };
    case 'remaining':
      return { border: 'var(--mantine-color-gray-6)', fill: 'color-mix(in srgb, var(--mantine-color-gray-4) 30%, transparent)', stripe: 'var(--mantine-color-gray-6)' };
  }
}

/**
 * One tag over its page: a focusable box showing its type and its signer's initials, moved by
 * dragging it (possibly onto another page) and resized by its bottom-right handle. While the
 * pointer moves only this box follows it; the edit itself is decided by the editor when the
 * pointer is released, so a refused edit simply leaves the tag where it was.
 */
export function TagBox(props: TagBoxProps) {
  const { shown, selected } = props;
  const ref = useRef<HTMLDivElement>(null);
  const gesture = useRef<Gesture | null>(null);
  const [offset, setOffset] = useState<{ mode: Gesture['mode']; dx: number; dy: number } | null>(null);

  // A tag selected from elsewhere (placed, pasted, picked in the problem list) takes the focus,
  // so the keyboard acts on it and the page scrolls it into view.
  useEffect(() => {
    if (selected && ref.current && document.activeElement !== ref.current) ref.current.focus();
  }, [selected]);

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.stopPropagation();
    const box = ref.current;
    if (!box) return;
    const bounds = box.getBoundingClientRect();
    const onHandle = event.target instanceof Element && event.target.closest('[data-resize-handle]') !== null;
    gesture.current = {
      mode: onHandle ? 'resize' : 'move',
      pointerId: event.pointerId,
      startX: event.clientX,
      startY: event.clientY,
      left: bounds.left,
      top: bounds.top,
      dragging: false,
    };
    // Capturing keeps the moves coming when the pointer leaves the box (or the page) mid-drag.
    box.setPointerCapture?.(event.pointerId);
    props.onSelect();
  };

  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const current = gesture.current;
    if (!current || current.pointerId !== event.pointerId) return;
    const dx = event.clientX - current.startX;
    const dy = event.clientY - current.startY;
    if (!current.dragging && Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
    current.dragging = true;
    setOffset({ mode: current.mode, dx, dy });
  };

  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    const current = gesture.current;
    if (!current || current.pointerId !== event.pointerId) return;
    gesture.current = null;
    setOffset(null);
    if (!current.dragging) return;
    const dx = event.clientX - current.startX;
    const dy = event.clientY - current.startY;
    if (current.mode === 'move') {
      props.onMoveEnd({ x: current.left + dx, y: current.top + dy }, { x: event.clientX, y: event.clientY });
    } else {
      props.onResizeEnd({ x: shown.x, y: shown.y, width: shown.width + dx, height: shown.height + dy });
    }
  };

  const onPointerCancel = () => {
    gesture.current = null;
    setOffset(null);
  };

  const colours = palette(props.colourRole, props.signerColour);
  const moving = offset?.mode === 'move' ? offset : null;
  const resizing = offset?.mode === 'resize' ? offset : null;
  const width = Math.max(4, shown.width + (resizing?.dx ?? 0));
  const height = Math.max(4, shown.height + (resizing?.dy ?? 0));
  const stripe = props.thinBorder ? LETTERHEAD_TAG_BORDER_WIDTH : TAG_BORDER_WIDTH;
  // Tag sizes mean the size as shown (geometry.ts shownSize), so on every page the label reads
  // upright, like the value stamped into the box later.
  const compact = height < 22 || width < 60;

  return (
    <div
      ref={ref}
      role="button"
      tabIndex={0}
      aria-label={props.label}
      aria-pressed={selected}
      data-testid="tag-box"
      data-tag-uuid={props.uuid}
      data-colour={props.colourRole}
      title={props.label}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerCancel}
      // The page under a box must not see its clicks: that would place a tag or clear the selection.
      onClick={(event) => event.stopPropagation()}
      onKeyDown={props.onKeyDown}
      // Reaching a tag with Tab selects it, so its properties and the shortcuts follow the focus.
      onFocus={() => {
        if (!selected) props.onSelect();
      }}
      style={{
        position: 'absolute',
        left: shown.x,
        top: shown.y,
        width,
        height,
        boxSizing: 'border-box',
        // Longhands only: React warns when a shorthand (border) and one of its parts change together.
        borderTop: `1px solid ${colours.border}`,
        borderRight: `1px solid ${colours.border}`,
        borderBottom: `1px solid ${colours.border}`,
        borderLeft: `${Math.min(stripe, Math.max(2, width / 4))}px solid ${colours.stripe}`,
        background: props.imageUrl ? `center / contain no-repeat url("${props.imageUrl}"), ${colours.fill}` : colours.fill,
        outline: selected ? `2px solid ${colours.border}` : undefined,
        outlineOffset: 1,
        borderRadius: 2,
        transform: moving ? `translate(${moving.dx}px, ${moving.dy}px)` : undefined,
        zIndex: moving || resizing ? 3 : selected ? 2 : 1,
        cursor: moving ? 'grabbing' : 'grab',
        // Pointer drags, not the browser's scrolling or text selection, own a press on a box.
        touchAction: 'none',
        userSelect: 'none',
        overflow: 'hidden',
        fontSize: compact ? 9 : 11,
        lineHeight: 1.15,
        color: 'var(--mantine-color-black)',
        opacity: moving ? 0.85 : 1,
      }}
    >
      <span
        aria-hidden
        style={{
          position: 'absolute',
          inset: 0,
          display: 'flex',
          alignItems: compact ? 'center' : 'flex-start',
          justifyContent: 'space-between',
          gap: 2,
          padding: compact ? '0 2px' : '2px 3px',
        }}
      >
        <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', fontWeight: 600 }}>{props.typeName}</span>
        {props.initials && (
          <span
            style={{
              flex: 'none',
              borderRadius: 8,
              padding: '0 4px',
              background: `var(--mantine-color-${props.signerColour}-7)`,
              color: 'var(--mantine-color-white)',
              fontWeight: 700,
            }}
          >
            {props.initials}
          </span>
        )}
      </span>
      <span
        data-resize-handle
        aria-hidden
        style={{
          position: 'absolute',
          right: 0,
          bottom: 0,
          width: HANDLE_SIZE,
          height: HANDLE_SIZE,
          cursor: 'nwse-resize',
          background: `linear-gradient(135deg, transparent 50%, ${colours.border} 50%)`,
        }}
      />
    </div>
  );
}

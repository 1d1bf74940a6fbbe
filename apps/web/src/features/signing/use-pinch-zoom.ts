import { useEffect, useEffectEvent, useRef } from 'react';
import { pinchZoom } from './ceremony-zoom';
import type { DocumentView } from './use-document-view';

interface Pinch {
  readonly distance: number;
  readonly start: number;
  readonly fit: number;
  /** Between the fingers when they landed, in viewport px. */
  readonly midX: number;
  readonly midY: number;
  target: number | 'fit';
}

const distanceOf = (touches: TouchList) => Math.hypot(touches[0]!.clientX - touches[1]!.clientX, touches[0]!.clientY - touches[1]!.clientY);

/**
 * Two-finger zoom over the pages (issue 22), held to the configured limits like the buttons. While
 * the fingers move, the pages are scaled by CSS alone (tags scale with them, so they stay where
 * they belong); the zoom is set once the fingers lift, so pdf.js draws the pages once, and the
 * part between the fingers is scrolled back under them. The element gets `touch-action: pan-x
 * pan-y` from its owner, so the browser leaves the pinch to us and one finger still scrolls.
 */
export function usePinchZoom(node: HTMLElement | null, view: DocumentView, scrollsWithPage: boolean) {
  const gesture = useRef<Pinch | null>(null);

  const start = useEffectEvent((event: TouchEvent) => {
    if (!node || event.touches.length !== 2) return;
    const distance = distanceOf(event.touches);
    if (distance <= 0) return;
    const midX = (event.touches[0]!.clientX + event.touches[1]!.clientX) / 2;
    const midY = (event.touches[0]!.clientY + event.touches[1]!.clientY) / 2;
    gesture.current = { distance, start: view.zoom, fit: view.fitZoom, midX, midY, target: view.zoom };
    const bounds = node.getBoundingClientRect();
    node.style.transformOrigin = `${midX - bounds.left}px ${midY - bounds.top}px`;
  });

  const move = useEffectEvent((event: TouchEvent) => {
    const pinch = gesture.current;
    if (!pinch || !node || event.touches.length !== 2) return;
    pinch.target = pinchZoom({ start: pinch.start, ratio: distanceOf(event.touches) / pinch.distance, fit: pinch.fit, limits: view.limits });
    const shown = pinch.target === 'fit' ? pinch.fit : pinch.target;
    node.style.transform = `scale(${shown / pinch.start})`;
  });

  const end = useEffectEvent(() => {
    const pinch = gesture.current;
    if (!pinch) return;
    gesture.current = null;
    if (node) {
      node.style.transform = '';
      node.style.transformOrigin = '';
    }
    const ratio = (pinch.target === 'fit' ? pinch.fit : pinch.target) / pinch.start;
    view.setZoom(pinch.target);
    const box = view.scrollRef.current;
    if (!box || Math.abs(ratio - 1) < 0.01) return;
    // What was between the fingers grows (or shrinks) away from the pages' top-left corner: scroll
    // by as much, once the new zoom is laid out.
    const bounds = box.getBoundingClientRect();
    const x = pinch.midX - bounds.left + box.scrollLeft;
    const y = pinch.midY - bounds.top + (scrollsWithPage ? 0 : box.scrollTop);
    const scroller = scrollsWithPage ? (document.scrollingElement ?? document.documentElement) : box;
    const follow = () => {
      box.scrollLeft += x * (ratio - 1);
      scroller.scrollTop += y * (ratio - 1);
    };
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(follow);
  });

  useEffect(() => {
    if (!node) return;
    const onStart = (event: TouchEvent) => start(event);
    const onMove = (event: TouchEvent) => move(event);
    const onEnd = (event: TouchEvent) => {
      if (event.touches.length < 2) end();
    };
    node.addEventListener('touchstart', onStart, { passive: true });
    node.addEventListener('touchmove', onMove, { passive: true });
    node.addEventListener('touchend', onEnd);
    node.addEventListener('touchcancel', onEnd);
    return () => {
      node.removeEventListener('touchstart', onStart);
      node.removeEventListener('touchmove', onMove);
      node.removeEventListener('touchend', onEnd);
      node.removeEventListener('touchcancel', onEnd);
    };
  }, [node]);
}

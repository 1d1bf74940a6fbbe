import { type CSSProperties, type DragEvent, useState } from 'react';

/**
 * A zone that takes files dropped on it (compose's uploader, /verify): the dashed border that turns
 * blue while files are over it, and the handlers. Drags that carry no files (text, a link) are left
 * alone; leaving for a child of the zone is not leaving it.
 */
export function useFileDrop(onFiles: (files: File[]) => void) {
  const [dragOver, setDragOver] = useState(false);
  const style: CSSProperties = {
    border: `2px dashed ${dragOver ? 'var(--mantine-color-blue-6)' : 'var(--mantine-color-gray-4)'}`,
    borderRadius: 'var(--mantine-radius-md)',
    background: dragOver ? 'var(--mantine-color-blue-0)' : undefined,
  };
  return {
    'data-drag-over': dragOver || undefined,
    style,
    onDragOver: (event: DragEvent<HTMLElement>) => {
      if (!event.dataTransfer.types.includes('Files')) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
      setDragOver(true);
    },
    onDragLeave: (event: DragEvent<HTMLElement>) => {
      if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragOver(false);
    },
    onDrop: (event: DragEvent<HTMLElement>) => {
      event.preventDefault();
      setDragOver(false);
      onFiles([...event.dataTransfer.files]);
    },
  };
}

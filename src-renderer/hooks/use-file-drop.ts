import { useRef, useState, type DragEvent } from 'react';

export interface FileDrop {
  /** A file is being dragged over the target. */
  active: boolean;
  handlers: {
    onDragEnter: (event: DragEvent) => void;
    onDragOver: (event: DragEvent) => void;
    onDragLeave: (event: DragEvent) => void;
    onDrop: (event: DragEvent) => void;
  };
}

function carriesFiles(event: DragEvent): boolean {
  return Array.from(event.dataTransfer.types).includes('Files');
}

/** Drag-and-drop of one file onto an element; other drags (text, links) are left alone. */
export function useFileDrop(onFile: (file: File) => void, enabled = true): FileDrop {
  const [active, setActive] = useState(false);
  // dragenter/dragleave fire for every child crossed; counting them tells when the pointer really left.
  const depth = useRef(0);

  const accept = (event: DragEvent) => {
    if (!enabled || !carriesFiles(event)) return false;
    event.preventDefault();
    return true;
  };

  return {
    active: active && enabled,
    handlers: {
      onDragEnter(event) {
        if (!accept(event)) return;
        depth.current += 1;
        setActive(true);
      },
      onDragOver(event) {
        if (!accept(event)) return;
        event.dataTransfer.dropEffect = 'copy';
      },
      onDragLeave(event) {
        if (!accept(event)) return;
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setActive(false);
      },
      onDrop(event) {
        if (!accept(event)) return;
        event.stopPropagation();
        depth.current = 0;
        setActive(false);
        const file = event.dataTransfer.files[0];
        if (file) onFile(file);
      },
    },
  };
}

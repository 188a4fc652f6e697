import type { RefObject } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { uploadImage } from '../../lib/images.js';
import { maskPng } from '../../lib/mask.js';

export interface Mask {
  canvas: RefObject<HTMLCanvasElement | null>;
  painted: boolean;
  paint: () => void;
  clear: () => void;
  /** Uploads the painted mask as a PNG and answers its image id; undefined when nothing is painted. */
  upload: () => Promise<string | undefined>;
}

/** The painted mask of the form; uploaded once per drawing, so "generate again" reuses the same upload. */
export function useMask(): Mask {
  const canvas = useRef<HTMLCanvasElement | null>(null);
  const [painted, setPainted] = useState(false);
  // Counts every change; an upload is reused only while nothing was painted or cleared since.
  const drawing = useRef(0);
  const uploaded = useRef<{ drawing: number; id: string } | undefined>(undefined);
  return {
    canvas,
    painted,
    paint: () => {
      drawing.current += 1;
      setPainted(true);
    },
    clear: () => {
      drawing.current += 1;
      setPainted(false);
    },
    upload: async () => {
      const element = canvas.current;
      if (!painted || element === null) return undefined;
      if (uploaded.current?.drawing === drawing.current) return uploaded.current.id;
      const current = drawing.current;
      // As a mask: the gallery lists it under Uploads only, not among the images made.
      const image = await uploadImage(await maskPng(element), 'mask.png', 'mask');
      uploaded.current = { drawing: current, id: image.id };
      return image.id;
    },
  };
}

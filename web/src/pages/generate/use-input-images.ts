import { useEffect, useState } from 'preact/hooks';
import type { Image } from '../../api/types.js';
import { useAction } from '../../hooks/use-action.js';
import type { ApiFailure } from '../../lib/api-error.js';
import { plural } from '../../lib/format.js';
import { uploadImage, uploadProblem } from '../../lib/images.js';
import { useSession } from '../../session.js';

export interface InputImages {
  images: readonly Image[];
  /** Uploads the files (one at a time) and adds each as an input, as far as the model takes them. */
  add: (files: readonly File[]) => Promise<void>;
  remove: (id: string) => void;
  busy: boolean;
  /** Why files were not taken: a wrong file, a full list, or the API's answer to the upload. */
  problem: string | undefined;
  failure: ApiFailure | undefined;
}

/** The images a generation starts from; `max` is what the chosen model takes (1: a new one replaces the old). */
export function useInputImages(initial: readonly Image[], max: number): InputImages {
  const { uploadTypes } = useSession();
  const [images, setImages] = useState<readonly Image[]>(initial);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const upload = useAction((file: File) => uploadImage(file, file.name));
  // What was said about the last model's limit does not hold for another model.
  useEffect(() => setProblem(undefined), [max]);

  const add = async (files: readonly File[]) => {
    setProblem(undefined);
    upload.clear();
    if (files.length === 0) return;
    if (max <= 0) {
      setProblem('This model takes no input images: choose one that does first.');
      return;
    }
    const wrong = files.map((file) => uploadProblem(file, uploadTypes)).find((text) => text !== undefined);
    if (wrong !== undefined) {
      setProblem(wrong);
      return;
    }
    const room = max === 1 ? 1 : max - images.length;
    if (room <= 0) {
      setProblem(`This model takes up to ${plural(max, 'image')}: remove one first.`);
      return;
    }
    if (files.length > room)
      setProblem(`This model takes up to ${plural(max, 'image')}: only the first ${plural(room, 'file')} ${room === 1 ? 'was' : 'were'} added.`);
    for (const file of files.slice(0, room)) {
      const image = await upload.run(file);
      if (image === undefined) return;
      setImages((current) => (max === 1 ? [image] : [...current, image]));
    }
  };

  return {
    images,
    add,
    remove: (id) => setImages((current) => current.filter((image) => image.id !== id)),
    busy: upload.busy,
    problem,
    failure: upload.failure,
  };
}

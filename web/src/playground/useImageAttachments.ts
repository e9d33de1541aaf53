import { useCallback, useRef, useState } from "react";
import { toast } from "../ui/toast";
import { compressImage } from "./compress-image";
import { screenImageFiles } from "./images";
import { PLAYGROUND_TEXT } from "./messages";

export interface AttachedImage {
  id: number;
  name: string;
  /** The downscaled JPEG as a data URL, as sent to the server. */
  dataUrl: string;
}

export interface ImageAttachments {
  images: readonly AttachedImage[];
  /** Files being downscaled right now. */
  processing: number;
  add(files: readonly File[]): Promise<void>;
  remove(id: number): void;
}

/** Up to 3 images, each checked, downscaled and re-encoded as it is chosen. */
export function useImageAttachments(): ImageAttachments {
  const [images, setImages] = useState<readonly AttachedImage[]>([]);
  const [processing, setProcessing] = useState(0);
  /** Attached plus in-processing images, kept synchronously so quick successive picks respect the limit. */
  const taken = useRef(0);
  const nextId = useRef(1);

  const add = useCallback(async (files: readonly File[]) => {
    const { accepted, problems } = screenImageFiles(files, taken.current);
    for (const problem of problems) toast.error(problem.title, problem.description);
    taken.current += accepted.length;
    setProcessing((n) => n + accepted.length);
    // One at a time, so images keep the order chosen and only one is decoded at once.
    for (const index of accepted) {
      const file = files[index]!;
      try {
        const dataUrl = await compressImage(file);
        const id = nextId.current++;
        setImages((list) => [...list, { id, name: file.name, dataUrl }]);
      } catch {
        taken.current -= 1;
        toast.error(PLAYGROUND_TEXT.imageProcessing.title, PLAYGROUND_TEXT.imageProcessing.description);
      } finally {
        setProcessing((n) => n - 1);
      }
    }
  }, []);

  const remove = useCallback((id: number) => {
    taken.current -= 1;
    setImages((list) => list.filter((image) => image.id !== id));
  }, []);

  return { images, processing, add, remove };
}

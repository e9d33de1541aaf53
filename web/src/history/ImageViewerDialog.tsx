import * as RadixDialog from "@radix-ui/react-dialog";
import { IMAGE_ASSET_MESSAGES, type ImageAsset } from "@sd/contracts";
import { ChevronLeft, ChevronRight, Download, ImageOff, RotateCw, Undo2, X, ZoomIn, ZoomOut } from "lucide-react";
import { useCallback, useEffect, useReducer, useRef, useState, type Dispatch, type KeyboardEvent, type PointerEvent } from "react";
import { buttonClass } from "../ui/button";
import { downloadFileName, formatKb, imageTitle, stepImage } from "./format";
import { INITIAL_VIEW, keyAction, viewerReducer, viewTransform, ZOOM_MAX, ZOOM_MIN, zoomPercent, type ViewerAction, type ViewerState } from "./image-viewer-state";

const toolButton = buttonClass("secondary", "sm", "px-2");

/** The picture, zoomed, rotated and panned; drag to pan, wheel to zoom. */
function Stage({ asset, title, view, dispatch }: { asset: ImageAsset; title: string; view: ViewerState; dispatch: Dispatch<ViewerAction> }) {
  const [failed, setFailed] = useState(false);
  const drag = useRef<{ x: number; y: number } | null>(null);
  const [dragging, setDragging] = useState(false);

  // React's wheel listener is passive, so it cannot keep the page from scrolling: listen natively.
  const stage = useRef<HTMLDivElement | null>(null);
  const onWheel = useCallback(
    (event: WheelEvent) => {
      event.preventDefault();
      dispatch({ type: "wheel", deltaY: event.deltaY });
    },
    [dispatch],
  );
  const stageRef = useCallback(
    (element: HTMLDivElement | null) => {
      stage.current?.removeEventListener("wheel", onWheel);
      stage.current = element;
      element?.addEventListener("wheel", onWheel, { passive: false });
    },
    [onWheel],
  );

  const start = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0 || failed) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { x: event.clientX, y: event.clientY };
    setDragging(true);
  };
  const move = (event: PointerEvent<HTMLDivElement>) => {
    const last = drag.current;
    if (!last) return;
    drag.current = { x: event.clientX, y: event.clientY };
    dispatch({ type: "pan", dx: event.clientX - last.x, dy: event.clientY - last.y });
  };
  const end = () => {
    drag.current = null;
    setDragging(false);
  };

  return (
    <div
      ref={stageRef}
      data-testid="image-stage"
      className={`relative grid h-[60vh] touch-none place-items-center overflow-hidden rounded-lg bg-slate-900 select-none ${dragging ? "cursor-grabbing" : "cursor-grab"}`}
      onPointerDown={start}
      onPointerMove={move}
      onPointerUp={end}
      onPointerCancel={end}
    >
      {failed ? (
        <div className="flex flex-col items-center gap-2 text-slate-300">
          <ImageOff className="size-10" aria-hidden />
          <p>{IMAGE_ASSET_MESSAGES.failedToLoad}</p>
        </div>
      ) : (
        <img
          src={asset.image_data}
          alt={title}
          draggable={false}
          onError={() => setFailed(true)}
          className="max-h-full max-w-full object-contain transition-transform duration-75"
          style={{ transform: viewTransform(view) }}
        />
      )}
    </div>
  );
}

export interface ImageViewerProps {
  /** The decision's images, in order; the viewer steps through them. */
  assets: readonly ImageAsset[];
  /** The one shown, or null when the viewer is closed. */
  index: number | null;
  onIndexChange(index: number): void;
  onClose(): void;
}

/**
 * The image viewer: zoom 0.1 to 5 (buttons and keys by 1.2, the
 * wheel by 1.1 / 0.9), rotate in 90 degree steps, pan by dragging, download, size in KB, previous
 * and next image. Keys: + or = zoom in, - zoom out, R rotate, 0 reset, arrows previous / next, Esc close.
 */
export function ImageViewerDialog({ assets, index, onIndexChange, onClose }: ImageViewerProps) {
  const [view, dispatch] = useReducer(viewerReducer, INITIAL_VIEW);
  const asset = index === null ? null : (assets[index] ?? null);
  const title = asset && index !== null ? imageTitle(asset.label, index) : "";
  const previous = index === null ? null : stepImage(index, assets.length, -1);
  const next = index === null ? null : stepImage(index, assets.length, 1);
  // Each image opens at its natural size, upright and centred.
  useEffect(() => dispatch({ type: "reset" }), [asset?.id]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return; // leave the browser's own zoom alone
    const step = event.key === "ArrowLeft" ? previous : event.key === "ArrowRight" ? next : undefined;
    if (step !== undefined) {
      event.preventDefault();
      if (step !== null) onIndexChange(step);
      return;
    }
    const action = keyAction(event.key);
    if (!action) return;
    event.preventDefault();
    dispatch(action);
  };

  return (
    <RadixDialog.Root open={asset !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-slate-900/70" />
        <RadixDialog.Content
          onKeyDown={onKeyDown}
          className="fixed top-1/2 left-1/2 z-50 flex max-h-[95vh] w-[calc(100vw-1rem)] max-w-4xl -translate-x-1/2 -translate-y-1/2 flex-col gap-3 overflow-y-auto rounded-xl bg-white p-3 shadow-xl sm:p-5"
        >
          {asset ? (
            <>
              <div className="flex items-start justify-between gap-3">
                <div className="min-w-0">
                  <RadixDialog.Title className="text-lg font-semibold [overflow-wrap:anywhere]">{title}</RadixDialog.Title>
                  <RadixDialog.Description className="text-sm text-slate-600">
                    {assets.length > 1 ? `${(index ?? 0) + 1} of ${assets.length} · ` : ""}
                    {asset.image_type} · {formatKb(asset.file_size)}
                  </RadixDialog.Description>
                </div>
                <RadixDialog.Close className="rounded-md p-1 text-slate-500 hover:bg-slate-100" aria-label="Close">
                  <X className="size-5" aria-hidden />
                </RadixDialog.Close>
              </div>
              <div role="toolbar" aria-label="Image tools" className="flex flex-wrap items-center gap-2">
                {assets.length > 1 ? (
                  <>
                    <button type="button" className={toolButton} aria-label="Previous image" disabled={previous === null} onClick={() => previous !== null && onIndexChange(previous)}>
                      <ChevronLeft className="size-4" aria-hidden />
                    </button>
                    <button type="button" className={toolButton} aria-label="Next image" disabled={next === null} onClick={() => next !== null && onIndexChange(next)}>
                      <ChevronRight className="size-4" aria-hidden />
                    </button>
                  </>
                ) : null}
                <button type="button" className={toolButton} aria-label="Zoom out" disabled={view.zoom <= ZOOM_MIN} onClick={() => dispatch({ type: "zoom-out" })}>
                  <ZoomOut className="size-4" aria-hidden />
                </button>
                <output aria-label="Zoom" className="min-w-14 text-center text-sm font-medium tabular-nums">
                  {zoomPercent(view.zoom)}
                </output>
                <button type="button" className={toolButton} aria-label="Zoom in" disabled={view.zoom >= ZOOM_MAX} onClick={() => dispatch({ type: "zoom-in" })}>
                  <ZoomIn className="size-4" aria-hidden />
                </button>
                <button type="button" className={toolButton} aria-label="Rotate 90 degrees" onClick={() => dispatch({ type: "rotate" })}>
                  <RotateCw className="size-4" aria-hidden />
                </button>
                <button type="button" className={toolButton} aria-label="Reset view" onClick={() => dispatch({ type: "reset" })}>
                  <Undo2 className="size-4" aria-hidden />
                </button>
                <a className={buttonClass("secondary", "sm")} href={asset.image_data} download={downloadFileName(asset.label, asset.image_type)}>
                  <Download className="size-4" aria-hidden />
                  Download
                </a>
              </div>
              <Stage key={asset.id} asset={asset} title={title} view={view} dispatch={dispatch} />
              <p className="text-xs text-slate-500">
                Drag to pan, scroll to zoom. Keys: + or = zoom in, - zoom out, R rotate, 0 reset{assets.length > 1 ? ", arrows previous / next" : ""}, Esc close.
              </p>
            </>
          ) : null}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

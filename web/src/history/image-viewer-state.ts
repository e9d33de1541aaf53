/** The image viewer's zoom, rotation and pan, as a pure reducer. */

export const ZOOM_MIN = 0.1;
export const ZOOM_MAX = 5;
/** Zoom factor of the buttons and keys. */
export const ZOOM_STEP = 1.2;
/** Zoom factors of one mouse-wheel notch. */
export const WHEEL_ZOOM_IN = 1.1;
export const WHEEL_ZOOM_OUT = 0.9;
export const ROTATE_STEP_DEGREES = 90;

export interface ViewerState {
  zoom: number;
  /** 0, 90, 180 or 270. */
  rotation: number;
  /** Pan offset in screen pixels. */
  x: number;
  y: number;
}

export const INITIAL_VIEW: ViewerState = { zoom: 1, rotation: 0, x: 0, y: 0 };

export type ViewerAction =
  | { type: "zoom-in" }
  | { type: "zoom-out" }
  /** One wheel event: scrolling up (negative deltaY) zooms in. */
  | { type: "wheel"; deltaY: number }
  | { type: "rotate" }
  | { type: "pan"; dx: number; dy: number }
  | { type: "reset" };

/** Keeps the zoom within 0.1 to 5 and free of float noise (1.2 * 1.2 reads 1.44, not 1.4399999). */
function clampZoom(zoom: number): number {
  return Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, Number(zoom.toFixed(6))));
}

export function viewerReducer(state: ViewerState, action: ViewerAction): ViewerState {
  switch (action.type) {
    case "zoom-in":
      return { ...state, zoom: clampZoom(state.zoom * ZOOM_STEP) };
    case "zoom-out":
      return { ...state, zoom: clampZoom(state.zoom / ZOOM_STEP) };
    case "wheel":
      if (action.deltaY === 0) return state;
      return { ...state, zoom: clampZoom(state.zoom * (action.deltaY < 0 ? WHEEL_ZOOM_IN : WHEEL_ZOOM_OUT)) };
    case "rotate":
      return { ...state, rotation: (state.rotation + ROTATE_STEP_DEGREES) % 360 };
    case "pan":
      return { ...state, x: state.x + action.dx, y: state.y + action.dy };
    case "reset":
      return INITIAL_VIEW;
  }
}

/** The viewer's keys: + or = zoom in, - zoom out, R rotate 90 degrees, 0 reset (Esc closes the dialog). */
export function keyAction(key: string): ViewerAction | null {
  switch (key) {
    case "+":
    case "=":
      return { type: "zoom-in" };
    case "-":
      return { type: "zoom-out" };
    case "r":
    case "R":
      return { type: "rotate" };
    case "0":
      return { type: "reset" };
    default:
      return null;
  }
}

/** The image's CSS transform: pan in screen pixels first, then zoom and rotation about its centre. */
export function viewTransform({ zoom, rotation, x, y }: ViewerState): string {
  return `translate(${x}px, ${y}px) scale(${zoom}) rotate(${rotation}deg)`;
}

/** The zoom as the toolbar shows it ("120%"). */
export function zoomPercent(zoom: number): string {
  return `${Math.round(zoom * 100)}%`;
}

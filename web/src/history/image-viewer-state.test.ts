import { describe, expect, it } from "vitest";
import { INITIAL_VIEW, keyAction, viewerReducer, viewTransform, zoomPercent, type ViewerAction, type ViewerState } from "./image-viewer-state";

const run = (actions: ViewerAction[], from: ViewerState = INITIAL_VIEW) => actions.reduce(viewerReducer, from);
const times = (n: number, action: ViewerAction) => Array.from({ length: n }, () => action);

describe("image viewer state", () => {
  it("zooms by a factor of 1.2 with the buttons and keys", () => {
    expect(run([{ type: "zoom-in" }]).zoom).toBe(1.2);
    expect(run([{ type: "zoom-in" }, { type: "zoom-in" }]).zoom).toBe(1.44);
    expect(run([{ type: "zoom-out" }]).zoom).toBeCloseTo(1 / 1.2, 5);
    expect(run([{ type: "zoom-in" }, { type: "zoom-out" }]).zoom).toBe(1);
  });

  it("keeps the zoom between 0.1 and 5", () => {
    expect(run(times(40, { type: "zoom-in" })).zoom).toBe(5);
    expect(run(times(40, { type: "zoom-out" })).zoom).toBe(0.1);
    expect(run(times(80, { type: "wheel", deltaY: -100 })).zoom).toBe(5);
    expect(run(times(80, { type: "wheel", deltaY: 100 })).zoom).toBe(0.1);
  });

  it("zooms by 1.1 scrolling up and 0.9 scrolling down on the wheel", () => {
    expect(run([{ type: "wheel", deltaY: -53 }]).zoom).toBe(1.1);
    expect(run([{ type: "wheel", deltaY: 120 }]).zoom).toBe(0.9);
    expect(run([{ type: "wheel", deltaY: 0 }])).toBe(INITIAL_VIEW);
  });

  it("rotates in 90 degree steps, back to 0 after a full turn", () => {
    expect(run([{ type: "rotate" }]).rotation).toBe(90);
    expect(run(times(3, { type: "rotate" })).rotation).toBe(270);
    expect(run(times(4, { type: "rotate" })).rotation).toBe(0);
  });

  it("pans by the distance dragged, whatever the zoom", () => {
    const moved = run([{ type: "zoom-in" }, { type: "pan", dx: 30, dy: -10 }, { type: "pan", dx: 5, dy: 5 }]);
    expect(moved).toMatchObject({ x: 35, y: -5, zoom: 1.2 });
  });

  it("resets zoom, rotation and pan", () => {
    expect(run([{ type: "zoom-in" }, { type: "rotate" }, { type: "pan", dx: 1, dy: 2 }, { type: "reset" }])).toEqual(INITIAL_VIEW);
  });

  it("maps the keys + = - R 0 (Esc is the dialog's)", () => {
    expect(keyAction("+")).toEqual({ type: "zoom-in" });
    expect(keyAction("=")).toEqual({ type: "zoom-in" });
    expect(keyAction("-")).toEqual({ type: "zoom-out" });
    expect(keyAction("r")).toEqual({ type: "rotate" });
    expect(keyAction("R")).toEqual({ type: "rotate" });
    expect(keyAction("0")).toEqual({ type: "reset" });
    expect(keyAction("Escape")).toBeNull();
    expect(keyAction("x")).toBeNull();
  });

  it("describes the view as a CSS transform and a percentage", () => {
    expect(viewTransform({ zoom: 1.44, rotation: 90, x: 3, y: -4 })).toBe("translate(3px, -4px) scale(1.44) rotate(90deg)");
    expect(zoomPercent(1.44)).toBe("144%");
    expect(zoomPercent(0.1)).toBe("10%");
  });
});

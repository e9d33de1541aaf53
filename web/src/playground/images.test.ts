import { describe, expect, it } from "vitest";
import { downscaledSize, screenImageFiles } from "./images";

describe("downscaledSize", () => {
  it("keeps images up to 1024 wide as they are (never upscales)", () => {
    expect(downscaledSize({ width: 1024, height: 300 })).toEqual({ width: 1024, height: 300 });
    expect(downscaledSize({ width: 20, height: 10 })).toEqual({ width: 20, height: 10 });
  });

  it("scales wider images to 1024 keeping the aspect ratio", () => {
    expect(downscaledSize({ width: 2048, height: 1536 })).toEqual({ width: 1024, height: 768 });
    expect(downscaledSize({ width: 3000, height: 1000 })).toEqual({ width: 1024, height: 341 });
  });

  it("keeps tall narrow images as they are: only the width is limited", () => {
    expect(downscaledSize({ width: 800, height: 5000 })).toEqual({ width: 800, height: 5000 });
  });

  it("never rounds a very flat image down to zero height", () => {
    expect(downscaledSize({ width: 5000, height: 1 })).toEqual({ width: 1024, height: 1 });
  });

  it("accepts another maximum width", () => {
    expect(downscaledSize({ width: 400, height: 200 }, 100)).toEqual({ width: 100, height: 50 });
  });

  it("rejects sizes that are not an image's", () => {
    expect(() => downscaledSize({ width: 0, height: 10 })).toThrow(RangeError);
    expect(() => downscaledSize({ width: Number.NaN, height: 10 })).toThrow(RangeError);
  });
});

const png = (size = 1000) => ({ type: "image/png", size });
const MB = 1024 * 1024;

describe("screenImageFiles", () => {
  it("accepts images while fewer than 3 are attached", () => {
    expect(screenImageFiles([png(), png()], 1)).toEqual({ accepted: [0, 1], problems: [] });
  });

  it("refuses images beyond the third", () => {
    expect(screenImageFiles([png(), png()], 2)).toEqual({
      accepted: [0],
      problems: [{ title: "Maximum images reached", description: "You can only upload up to 3 images." }],
    });
  });

  it("refuses files that are not images", () => {
    expect(screenImageFiles([{ type: "application/pdf", size: 10 }, { type: "", size: 10 }, png()], 0)).toEqual({
      accepted: [2],
      problems: [{ title: "Invalid file type", description: "Please select only image files." }],
    });
  });

  it("refuses images of 10MB or more", () => {
    expect(screenImageFiles([png(10 * MB), png(10 * MB - 1)], 0)).toEqual({
      accepted: [1],
      problems: [{ title: "File too large", description: "Please select images smaller than 10MB." }],
    });
  });

  it("reports each kind of problem once, in the order met", () => {
    const result = screenImageFiles([{ type: "text/plain", size: 1 }, png(11 * MB), { type: "text/csv", size: 1 }], 0);
    expect(result.accepted).toEqual([]);
    expect(result.problems.map((p) => p.title)).toEqual(["Invalid file type", "File too large"]);
  });
});

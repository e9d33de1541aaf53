import type { Locator } from "playwright-core";

export type Hue = "green" | "yellow" | "red" | "other";

/**
 * The colour an element paints, by hue: what a user tells apart as green, yellow or red ("other"
 * for greys and the rest). `property` is the computed style read: the background by default, or
 * the text colour. The browser converts whatever the stylesheet wrote (oklch...) by painting it.
 */
export async function paintedHue(locator: Locator, property: "backgroundColor" | "color" = "backgroundColor"): Promise<Hue> {
  const [r, g, b] = (await locator.evaluate((element, name) => {
    const context = document.createElement("canvas").getContext("2d")!;
    context.fillStyle = getComputedStyle(element)[name];
    context.fillRect(0, 0, 1, 1);
    return Array.from(context.getImageData(0, 0, 1, 1).data);
  }, property)) as [number, number, number];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  if (max === min) return "other";
  const d = max - min;
  const hue = (max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4) * 60;
  const h = (hue + 360) % 360;
  if (h < 20 || h > 340) return "red";
  if (h >= 40 && h <= 70) return "yellow";
  if (h >= 90 && h <= 170) return "green";
  return "other";
}

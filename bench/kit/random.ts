/** A small seeded PRNG (mulberry32), so every run measures the same data and the same queries. */
export function seededRandom(seed: number): { random: () => number; pick: <T>(items: readonly T[]) => T } {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  return { random, pick };
}

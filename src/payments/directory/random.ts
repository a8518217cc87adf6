// A small seeded PRNG (mulberry32) so generated directories are identical on every run.
export interface Random {
  next(): number;
  int(min: number, maxInclusive: number): number;
  pick<T>(items: readonly T[]): T;
  digits(count: number): string;
  letters(count: number): string;
}

export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    pick: <T>(items: readonly T[]): T => items[int(0, items.length - 1)] as T,
    digits: (count) => Array.from({ length: count }, () => String(int(0, 9))).join(''),
    letters: (count) =>
      Array.from({ length: count }, () => String.fromCharCode(65 + int(0, 25))).join(''),
  };
}

// Jaro-Winkler similarity (0..1) for bank-name matching, over names normalised to upper-case letters and
// digits with legal-form noise words removed ("Bank of X N.A." ≈ "BANK OF X").

const NOISE = new Set([
  'AG',
  'SA',
  'NA',
  'PLC',
  'LTD',
  'INC',
  'CORP',
  'CO',
  'THE',
  'NV',
  'BV',
  'EG',
]);

export function normaliseName(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/\./g, '')
    .replace(/&/g, ' AND ')
    .replace(/[^A-Z0-9]+/g, ' ')
    .split(' ')
    .filter((w) => w !== '' && !NOISE.has(w))
    .join(' ');
}

// Reused match flags: name matching runs thousands of comparisons per search.
const BUFFER = 256;
const bufferA = new Uint8Array(BUFFER);
const bufferB = new Uint8Array(BUFFER);

export function jaro(a: string, b: string): number {
  if (a === b) return 1;
  const la = a.length;
  const lb = b.length;
  if (la === 0 || lb === 0) return 0;
  const window = Math.max(0, Math.floor(Math.max(la, lb) / 2) - 1);
  const matchedA = la <= BUFFER ? bufferA.fill(0, 0, la) : new Uint8Array(la);
  const matchedB = lb <= BUFFER ? bufferB.fill(0, 0, lb) : new Uint8Array(lb);
  let matches = 0;
  for (let i = 0; i < la; i += 1) {
    const from = Math.max(0, i - window);
    const to = Math.min(lb - 1, i + window);
    for (let j = from; j <= to; j += 1) {
      if (matchedB[j] === 0 && a.charCodeAt(i) === b.charCodeAt(j)) {
        matchedA[i] = 1;
        matchedB[j] = 1;
        matches += 1;
        break;
      }
    }
  }
  if (matches === 0) return 0;
  let transpositions = 0;
  let k = 0;
  for (let i = 0; i < la; i += 1) {
    if (matchedA[i] === 0) continue;
    while (matchedB[k] === 0) k += 1;
    if (a.charCodeAt(i) !== b.charCodeAt(k)) transpositions += 1;
    k += 1;
  }
  const t = transpositions / 2;
  return (matches / la + matches / lb + (matches - t) / matches) / 3;
}

/** Jaro-Winkler with the usual prefix scale 0.1 over at most 4 common leading characters. */
export function jaroWinkler(a: string, b: string): number {
  const j = jaro(a, b);
  let prefix = 0;
  const max = Math.min(4, a.length, b.length);
  while (prefix < max && a[prefix] === b[prefix]) prefix += 1;
  return j + prefix * 0.1 * (1 - j);
}

/** Similarity of two raw bank names after normalisation. */
export function nameSimilarity(a: string, b: string): number {
  return jaroWinkler(normaliseName(a), normaliseName(b));
}

/**
 * A matcher for one query against many normalised names: a cheap upper bound (shared characters and
 * common prefix) skips names that cannot reach `threshold` before the full Jaro-Winkler runs.
 * Returns the score, or undefined below the threshold.
 */
export function nameMatcher(
  query: string,
  threshold: number,
): (candidate: string) => number | undefined {
  const q = normaliseName(query);
  const counts = new Int32Array(128);
  for (let i = 0; i < q.length; i += 1) {
    const c = q.charCodeAt(i) & 127;
    counts[c] = (counts[c] ?? 0) + 1;
  }
  const work = new Int32Array(128);
  return (candidate) => {
    const la = q.length;
    const lb = candidate.length;
    if (la === 0 || lb === 0) return undefined;
    work.set(counts);
    let common = 0;
    for (let i = 0; i < lb; i += 1) {
      const c = candidate.charCodeAt(i) & 127;
      if ((work[c] ?? 0) > 0) {
        work[c] = (work[c] ?? 0) - 1;
        common += 1;
      }
    }
    const jUpper = (common / la + common / lb + 1) / 3;
    let prefix = 0;
    const max = Math.min(4, la, lb);
    while (prefix < max && q.charCodeAt(prefix) === candidate.charCodeAt(prefix)) prefix += 1;
    if (common === 0 || jUpper + prefix * 0.1 * (1 - jUpper) < threshold) return undefined;
    const score = jaroWinkler(q, candidate);
    return score >= threshold ? score : undefined;
  };
}

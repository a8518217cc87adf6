// German account numbers checked with the method the Bundesbank bank code file names for the bank code
// (field "Prüfzifferberechnungsmethode"), written from the Bundesbank's published method descriptions
// and tested with the test account numbers those descriptions give
// (pure). The account number is padded to 10 digits on the left; positions are numbered 1..10 from the
// left and weights are applied from the right, as the descriptions do. A method not implemented here is
// reported as such, never passed silently (docs/decisions.md, D-277).

export type CheckDigitResult =
  | { readonly kind: 'valid' }
  | { readonly kind: 'invalid'; readonly reason: string }
  | { readonly kind: 'no-check' }
  | { readonly kind: 'unsupported'; readonly method: string };

type Digits = readonly number[];
type Method = (d: Digits) => boolean;

const crossSum = (n: number): number => (n >= 10 ? Math.floor(n / 10) + (n % 10) : n);

/**
 * Σ digit × weight over positions `from`..`to` (1-based), weights taken cyclically from the right
 * (position `to` gets weights[0]); `cross` sums the digits of each product first.
 */
function weightedSum(
  d: Digits,
  from: number,
  to: number,
  weights: readonly number[],
  cross = false,
): number {
  let sum = 0;
  for (let pos = to, i = 0; pos >= from; pos -= 1, i += 1) {
    const product = (d[pos - 1] ?? 0) * (weights[i % weights.length] ?? 0);
    sum += cross ? crossSum(product) : product;
  }
  return sum;
}

/** Modulus 10: check = 10 − (sum mod 10), 10 becoming 0. */
const mod10Check = (sum: number): number => (10 - (sum % 10)) % 10;

/** Modulus 11 where remainders 0 and 1 give check digit 0 (methods 06, 10, 32, 33, 38 …). */
const mod11Zero = (sum: number): number => {
  const r = sum % 11;
  return r <= 1 ? 0 : 11 - r;
};

/** Modulus 11 where remainder 0 gives 0 and remainder 1 makes the number invalid (methods 02, 04 …). */
const mod11Strict = (sum: number): number | undefined => {
  const r = sum % 11;
  return r === 0 ? 0 : r === 1 ? undefined : 11 - r;
};

const at = (d: Digits, pos: number): number => d[pos - 1] ?? -1;

const mod10 =
  (weights: readonly number[], cross: boolean): Method =>
  (d) =>
    mod10Check(weightedSum(d, 1, 9, weights, cross)) === at(d, 10);

const mod11 =
  (weights: readonly number[], from: number, strict: boolean): Method =>
  (d) => {
    const sum = weightedSum(d, from, 9, weights);
    return (strict ? mod11Strict(sum) : mod11Zero(sum)) === at(d, 10);
  };

const W2_7 = [2, 3, 4, 5, 6, 7];
const W2_9 = [2, 3, 4, 5, 6, 7, 8, 9];
const W2_10 = [2, 3, 4, 5, 6, 7, 8, 9, 10];

const METHODS: Readonly<Record<string, Method>> = {
  // 00: modulus 10, weights 2,1,2,1,… with cross sums of the products (Luhn).
  '00': mod10([2, 1], true),
  // 01: modulus 10, weights 3,7,1,3,7,1,…
  '01': mod10([3, 7, 1], false),
  // 02: modulus 11, weights 2,3,4,5,6,7,8,9,2; remainder 1: invalid.
  '02': mod11([...W2_9, 2], 1, true),
  // 03: modulus 10, weights 2,1,2,1,… without cross sums.
  '03': mod10([2, 1], false),
  // 04: modulus 11, weights 2,3,4,5,6,7,2,3,4; remainder 1: invalid.
  '04': mod11([...W2_7, 2, 3, 4], 1, true),
  // 05: modulus 10, weights 7,3,1,7,3,1,…
  '05': mod10([7, 3, 1], false),
  // 06: modulus 11, weights 2,3,4,5,6,7,2,3,4; remainders 0 and 1: check digit 0.
  '06': mod11(W2_7, 1, false),
  // 07: modulus 11, weights 2,3,4,5,6,7,8,9,10; remainder 1: invalid.
  '07': mod11(W2_10, 1, true),
  // 08: as 00, for account numbers from 60 000 on; smaller ones are not checked.
  '08': (d) => Number(d.join('')) < 60000 || mod10([2, 1], true)(d),
  // 09: no check-digit calculation.
  // 10: modulus 11, weights 2,3,4,5,6,7,8,9,10; remainders 0 and 1: check digit 0.
  '10': mod11(W2_10, 1, false),
  // 11: as 10, but remainder 1 gives check digit 9.
  '11': (d) => {
    const r = weightedSum(d, 1, 9, W2_10) % 11;
    return (r === 0 ? 0 : r === 1 ? 9 : 11 - r) === at(d, 10);
  },
  // 20: as 06 with weights 2,3,4,5,6,7,8,9,3.
  '20': mod11([...W2_9, 3], 1, false),
  // 26: as 06 on positions 1–7 with weights 2,3,4,5,6,7,2, check digit in position 8; a number whose
  // positions 1 and 2 are 0 is first shifted two places left.
  '26': (d) => {
    const x = at(d, 1) === 0 && at(d, 2) === 0 ? [...d.slice(2), 0, 0] : d;
    return mod11Zero(weightedSum(x, 1, 7, [...W2_7, 2])) === at(x, 8);
  },
  // 28: as 06 on positions 1–7 with weights 8,7,6,5,4,3,2 (from the left), check digit in position 8.
  '28': (d) => mod11Zero(weightedSum(d, 1, 7, [2, 3, 4, 5, 6, 7, 8])) === at(d, 8),
  // 34: as 28 with weights 7,9,10,5,8,4,2 (from the left).
  '34': (d) => mod11Zero(weightedSum(d, 1, 7, [2, 4, 8, 5, 10, 9, 7])) === at(d, 8),
  // 17: positions 2–7 weighted 1,2,1,2,1,2 from the left (cross sums), sum − 1, modulus 11; check digit
  // in position 8 is 10 − remainder (remainder 0: 0).
  '17': (d) => {
    const r = (weightedSum(d, 2, 7, [2, 1], true) - 1) % 11;
    return (r === 0 ? 0 : 10 - r) === at(d, 8);
  },
  // 19: as 06 with weights 2,3,4,5,6,7,8,9,1.
  '19': mod11([...W2_9, 1], 1, false),
  // 32: as 06, positions 4–9 with weights 2,3,4,5,6,7.
  '32': mod11(W2_7, 4, false),
  // 33: as 06, positions 5–9 with weights 2,3,4,5,6.
  '33': mod11([2, 3, 4, 5, 6], 5, false),
  // 38: as 06, positions 4–9 with weights 2,4,8,5,10,9.
  '38': mod11([2, 4, 8, 5, 10, 9], 4, false),
  // 88: as 06, positions 4–9 with weights 2,3,4,5,6,7; when position 3 is 9, positions 3–9 with
  // weights 2,3,4,5,6,7,8.
  '88': (d) =>
    at(d, 3) === 9
      ? mod11Zero(weightedSum(d, 3, 9, [2, 3, 4, 5, 6, 7, 8])) === at(d, 10)
      : mod11Zero(weightedSum(d, 4, 9, W2_7)) === at(d, 10),
  // 63: as 13, but position 1 must be 0; a number whose positions 1–3 are 000 (sub-account 00 left
  // out) is checked on positions 4–9 with the check digit in position 10.
  '63': (d) => {
    if (at(d, 1) !== 0) return false;
    const base = (x: Digits) => mod10Check(weightedSum(x, 2, 7, [2, 1], true)) === at(x, 8);
    return base(d) || (at(d, 2) === 0 && at(d, 3) === 0 && base([...d.slice(2), 0, 0]));
  },
  // 68: 10-digit numbers: position 4 must be 9, positions 4–9 as 00 (check digit 10). 6 to 9 digits:
  // as 00, else as 00 without positions 3 and 4 (7 and 8 counted from the right);
  // 9-digit numbers 400000000–499999999 carry no check digit. Fewer than 6 digits: invalid.
  '68': (d) => {
    const length = d.join('').replace(/^0+/, '').length;
    if (length === 10) {
      return at(d, 4) === 9 && mod10Check(weightedSum(d, 4, 9, [2, 1], true)) === at(d, 10);
    }
    if (length < 6) return false;
    const n = Number(d.join(''));
    if (length === 9 && n >= 400000000 && n <= 499999999) return true;
    if (mod10Check(weightedSum(d, 1, 9, [2, 1], true)) === at(d, 10)) return true;
    const skipped = d.map((x, i) => (i === 2 || i === 3 ? 0 : x));
    return mod10Check(weightedSum(skipped, 1, 9, [2, 1], true)) === at(d, 10);
  },
  // 76: account type (position 1) 0, 4, 6, 7, 8 or 9; positions 2–7 weighted 2,3,4,… from the right,
  // the remainder modulo 11 is the check digit in position 8 (10: not checkable, invalid); when that
  // fails the number is checked again shifted two places left (sub-account 00 left out).
  '76': (d) => {
    const check = (x: Digits) => {
      if (![0, 4, 6, 7, 8, 9].includes(at(x, 1))) return false;
      const r = weightedSum(x, 2, 7, W2_7) % 11;
      return r !== 10 && r === at(x, 8);
    };
    return check(d) || check([...d.slice(2), 0, 0]);
  },
  // 91: check digit in position 7, four weightings tried in turn (each as 06): positions 1–6 with
  // 2,3,4,5,6,7 from the right; with 7,6,5,4,3,2 from the right; positions 1–10 (7 weighted 0) with
  // 2,3,4,0,5,6,7,8,9,10 from the right; positions 1–6 with 2,4,8,5,10,9 from the right.
  '91': (d) =>
    [
      mod11Zero(weightedSum(d, 1, 6, W2_7)),
      mod11Zero(weightedSum(d, 1, 6, [7, 6, 5, 4, 3, 2])),
      mod11Zero(weightedSum(d, 1, 10, [2, 3, 4, 0, 5, 6, 7, 8, 9, 10])),
      mod11Zero(weightedSum(d, 1, 6, [2, 4, 8, 5, 10, 9])),
    ].includes(at(d, 7)),
  // A1: 8- or 10-digit numbers only; positions 3–9 as 00 (weights 2,1,… from the right, 0 for 1–2).
  A1: (d) => {
    const length = d.join('').replace(/^0+/, '').length;
    return (
      (length === 8 || length === 10) &&
      mod10Check(weightedSum(d, 3, 9, [2, 1], true)) === at(d, 10)
    );
  },
  // A2: as 00, else as 04.
  A2: (d) =>
    mod10Check(weightedSum(d, 1, 9, [2, 1], true)) === at(d, 10) ||
    mod11Strict(weightedSum(d, 1, 9, [...W2_7, 2, 3, 4])) === at(d, 10),
  // 13: modulus 10 with cross sums, weights 2,1,2,1,2,1 on positions 2–7, check digit in position 8;
  // when that fails, the number is taken as shifted two places left (sub-account omitted) and checked
  // again.
  '13': (d) => {
    const check = (x: Digits) => mod10Check(weightedSum(x, 2, 7, [2, 1], true)) === at(x, 8);
    return check(d) || check([...d.slice(2), 0, 0]);
  },
};

/** Methods whose account numbers are not checked at all (09: "keine Prüfzifferberechnung"). */
const NO_CHECK: ReadonlySet<string> = new Set(['09']);

/** The methods this module implements (docs/bank-directory.md lists them). */
export const SUPPORTED_CHECK_METHODS: readonly string[] = [
  ...Object.keys(METHODS),
  ...NO_CHECK,
].sort();

/** The account number (1 to 10 digits) checked with the Bundesbank method `method`. */
export function checkGermanAccount(method: string, accountNumber: string): CheckDigitResult {
  if (NO_CHECK.has(method)) return { kind: 'no-check' };
  const run = METHODS[method];
  if (run === undefined) return { kind: 'unsupported', method };
  if (!/^\d{1,10}$/.test(accountNumber)) {
    return { kind: 'invalid', reason: 'an account number has 1 to 10 digits' };
  }
  const digits = accountNumber.padStart(10, '0').split('').map(Number);
  if (digits.every((x) => x === 0)) return { kind: 'invalid', reason: 'the account number is 0' };
  return run(digits)
    ? { kind: 'valid' }
    : {
        kind: 'invalid',
        reason: `${accountNumber.padStart(10, '0')} fails check-digit method ${method}`,
      };
}

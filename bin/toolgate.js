#!/usr/bin/env node
// Entry point of the `toolgate` command; the compiled CLI lives in dist/ (built by `npm ci` / `npm run build`).
// The Node.js version is checked first, against package.json's `engines`, before anything that needs a
// recent Node is loaded: an older Node gets one line naming the versions that work, not a SyntaxError from
// deep inside the code (decision: supported Node.js lines). Written for any Node that runs ES modules.
import { readFileSync } from 'node:fs';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const range = manifest.engines.node;

/** Whether `version` ("22.13.1") satisfies `range`, a `||` list of `^X.Y.Z` and `>=X[.Y.Z]` terms. */
function satisfies(version, range) {
  const parse = (text) => text.split('.').map((part) => Number.parseInt(part, 10) || 0);
  const atLeast = (have, want) => {
    for (let i = 0; i < 3; i += 1) {
      if ((have[i] || 0) !== (want[i] || 0)) return (have[i] || 0) > (want[i] || 0);
    }
    return true;
  };
  const have = parse(version);
  return range.split('||').some((term) => {
    const text = term.trim();
    if (text.startsWith('^')) {
      const want = parse(text.slice(1));
      return have[0] === want[0] && atLeast(have, want);
    }
    if (text.startsWith('>=')) return atLeast(have, parse(text.slice(2).trim()));
    return false;
  });
}

const running = process.versions.node;
if (!satisfies(running, range)) {
  console.error(
    `toolgate: Node.js ${running} is not supported. toolgate runs on Node.js 22 (22.13 or later, ` +
      `recommended) and 24 or later; 20.19 or later still works but is past its end of life ` +
      `(package.json engines: ${range}). Install Node.js 22 LTS (https://nodejs.org/) and run again.`,
  );
  process.exit(1);
}

const { main } = await import('../dist/src/cli/main.js');
main(process.argv.slice(2), process.env).then(
  (code) => {
    if (typeof code === 'number') process.exitCode = code;
  },
  (error) => {
    console.error(`toolgate: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);

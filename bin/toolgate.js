#!/usr/bin/env node
// Entry point of the `toolgate` command; the compiled CLI lives in dist/ (built by `npm ci` / `npm run build`).
import { main } from '../dist/src/cli/main.js';

main(process.argv.slice(2), process.env).then(
  (code) => {
    if (typeof code === 'number') process.exitCode = code;
  },
  (error) => {
    console.error(`toolgate: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);

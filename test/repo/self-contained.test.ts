// The repository is self-contained (DESIGN.md, "Interfaces others rely on"; issue 11): nothing in the
// build, the tests or the scripts reads outside it. This suite copies the tracked files (git ls-files)
// into an empty temporary folder, builds them there under Node's permission model with reads allowed
// only inside the copy and its dependencies, runs the contract test that once read ../shared there, and
// scans every source, test and script for a relative path that leaves the repository.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = process.cwd();
const hasGit =
  spawnSync('git', ['rev-parse', '--is-inside-work-tree'], {
    cwd: root,
    encoding: 'utf8',
  }).stdout.trim() === 'true';
const skip = hasGit ? false : 'not a git checkout: nothing to list with git ls-files';

function trackedFiles(): string[] {
  const listed = spawnSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    {
      cwd: root,
      encoding: 'utf8',
    },
  );
  assert.equal(listed.status, 0, listed.stderr);
  return listed.stdout.split('\0').filter((f) => f !== '' && !f.startsWith('node_modules/'));
}

let scratch = '';
let copy = '';
let files: string[] = [];

before(() => {
  if (skip) return;
  files = trackedFiles();
  scratch = mkdtempSync(path.join(tmpdir(), 'toolgate-self-contained-'));
  copy = path.join(scratch, 'repo');
  for (const file of files) {
    const target = path.join(copy, file);
    mkdirSync(path.dirname(target), { recursive: true });
    try {
      copyFileSync(path.join(root, file), target);
    } catch (error) {
      // A file deleted in the working tree but still in the index: the copy mirrors the working tree.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  symlinkSync(realpathSync(path.join(root, 'node_modules')), path.join(copy, 'node_modules'));
});

after(() => {
  if (scratch !== '') rmSync(scratch, { recursive: true, force: true });
});

/** Runs node in the copy with file reads confined to the copy and its installed dependencies. */
function confinedNode(args: readonly string[], writable: readonly string[] = []) {
  const modules = realpathSync(path.join(root, 'node_modules'));
  return spawnSync(
    process.execPath,
    [
      '--experimental-permission',
      `--allow-fs-read=${copy}/*`,
      `--allow-fs-read=${modules}/*`,
      ...writable.map((dir) => `--allow-fs-write=${dir}/*`),
      ...args,
    ],
    {
      cwd: copy,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: scratch, TOOLGATE_TEST: '1' },
      timeout: 180_000,
    },
  );
}

test(
  'the build succeeds in an empty folder with reads confined to the repository',
  { skip },
  () => {
    const built = confinedNode(
      [path.join('node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'],
      [path.join(copy, 'dist')],
    );
    assert.equal(built.status, 0, `tsc failed in the copy:\n${built.stdout}\n${built.stderr}`);
  },
);

test('the payment contract test passes in the copy without anything beside it', { skip }, () => {
  const run = confinedNode([path.join('dist', 'test', 'payments', 'openapi.test.js')]);
  assert.equal(run.status, 0, `contract test failed in the copy:\n${run.stdout}\n${run.stderr}`);
  assert.match(run.stdout, /# fail 0/);
});

// Built from parts so that this file does not match its own pattern.
const sharedFolder = new RegExp(['\\.\\.', 'shared', '(spec|DESIGN)'].join('[\\\\/]'));
const sharedPathParts = new RegExp(["'\\.\\.'", "\\s*'shared'"].join(','));
const relativeLiteral = /(['"`])(\.\.\/[^'"`\s$]*)\1/g;
const scanned = /^(src|test|scripts|bench|bin|\.ci)\/|^[^/]+\.(json|js|mjs|cjs|ts)$/;
const text = /\.(ts|mjs|cjs|js|json|ya?ml|sh)$|^\.ci\/run$|^bin\//;

test('no source, test or script refers to a path outside the repository', { skip }, () => {
  const offenders: string[] = [];
  for (const file of files) {
    if (!scanned.test(file) || !text.test(file) || file.startsWith('test/fixtures/')) continue;
    let body: string;
    try {
      body = readFileSync(path.join(copy, file), 'utf8');
    } catch {
      continue;
    }
    if (sharedFolder.test(body) || sharedPathParts.test(body))
      offenders.push(`${file}: names the shared folder beside the repository`);
    for (const match of body.matchAll(relativeLiteral)) {
      const literal = match[2] ?? '';
      const resolved = path.resolve(path.dirname(path.join(copy, file)), literal);
      if (path.relative(copy, resolved).startsWith('..'))
        offenders.push(`${file}: '${literal}' resolves outside the repository`);
    }
  }
  assert.deepEqual(offenders, []);
  assert.ok(files.length > 100, `expected the whole repository, listed ${files.length} files`);
});

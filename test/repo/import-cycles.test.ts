// No import circle in src/: every relative import (type-only ones too, since a circle of types is a circle
// of concepts) forms a graph with no strongly connected component larger than one file. A circle names
// every file in it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// The suite runs from the repository root (scripts/run-tests.mjs sets cwd).
const root = process.cwd();

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'";]*?['"](\.{1,2}\/[^'"]+)['"]/g;

function sourceFiles(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) found.push(...sourceFiles(full));
    else if (full.endsWith('.ts')) found.push(full);
  }
  return found;
}

/** Relative imports of each file, as the .ts files they name. */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets: string[] = [];
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = resolve(dirname(file), match[1] ?? '').replace(/\.js$/, '.ts');
      if (known.has(target)) targets.push(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** Strongly connected components of more than one file, or a file importing itself (Tarjan). */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next++;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target))
        low.set(file, Math.min(low.get(file) ?? 0, index.get(target) ?? 0));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) found.push(component);
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

test('the detector finds a circle of two files and of three, and none in a chain', () => {
  assert.deepEqual(
    circles(
      new Map([
        ['a', ['b']],
        ['b', ['c']],
        ['c', []],
      ]),
    ),
    [],
  );
  assert.equal(
    circles(
      new Map([
        ['a', ['b']],
        ['b', ['a']],
      ]),
    )[0]?.length,
    2,
  );
  assert.equal(
    circles(
      new Map([
        ['a', ['b']],
        ['b', ['c']],
        ['c', ['a']],
      ]),
    )[0]?.length,
    3,
  );
  assert.equal(circles(new Map([['a', ['a']]])).length, 1);
});

test('no import circle in src/ (type-only imports included)', () => {
  const found = circles(importGraph(sourceFiles(join(root, 'src'))));
  assert.deepEqual(
    found.map((circle) => circle.map((file) => relative(root, file)).sort()),
    [],
  );
});

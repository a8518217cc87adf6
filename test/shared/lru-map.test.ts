// The bounded map behind the request path's caches: a hit makes an entry the most recent, the least
// recently used goes first when the bound is passed, and re-setting a key does not grow the map.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LruMap } from '../../src/shared/lru-map.js';

test('the least recently used entry is evicted first; a hit protects an entry', () => {
  const map = new LruMap<string, number>(2);
  map.set('a', 1);
  map.set('b', 2);
  assert.equal(map.get('a'), 1); // a is now more recent than b
  map.set('c', 3);
  assert.equal(map.get('b'), undefined, 'b, the least recently used, went');
  assert.equal(map.get('a'), 1);
  assert.equal(map.get('c'), 3);
  assert.equal(map.size, 2);
});

test('setting a key again replaces its value, makes it the most recent and does not grow the map', () => {
  const map = new LruMap<string, number>(2);
  map.set('a', 1);
  map.set('b', 2);
  map.set('a', 10);
  assert.equal(map.size, 2);
  map.set('c', 3);
  assert.equal(map.get('b'), undefined);
  assert.equal(map.get('a'), 10);
  map.delete('a');
  assert.equal(map.get('a'), undefined);
  map.clear();
  assert.equal(map.size, 0);
});

test('a bound of 0 keeps nothing', () => {
  const map = new LruMap<string, number>(0);
  map.set('a', 1);
  assert.equal(map.size, 0);
  assert.equal(map.get('a'), undefined);
});

// The portal's two static files, read once at startup and served with a content hash in their URL, so
// they can be cached for a year and a new version is fetched as soon as it changes.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../shared/package-root.js';

export interface Asset {
  readonly body: string;
  readonly contentType: string;
}

export interface Assets {
  readonly cssHref: string;
  readonly jsHref: string;
  /** By file name with hash (`portal.<hash>.css`). */
  readonly files: ReadonlyMap<string, Asset>;
}

// The files stay in the source tree (no build step); the compiled module lives in dist/.
const SOURCE = join(packageRoot(), 'src', 'gateway', 'portal', 'assets');

function load(name: string, ext: string, contentType: string): [string, Asset] {
  const body = readFileSync(join(SOURCE, `${name}.${ext}`), 'utf8');
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  return [`${name}.${hash}.${ext}`, { body, contentType }];
}

export function loadAssets(): Assets {
  const css = load('portal', 'css', 'text/css; charset=utf-8');
  const js = load('portal', 'js', 'text/javascript; charset=utf-8');
  return {
    cssHref: `/portal/assets/${css[0]}`,
    jsHref: `/portal/assets/${js[0]}`,
    files: new Map([css, js]),
  };
}

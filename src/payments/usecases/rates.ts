// The fee quote's rate source: the inline table of `payments.fees.rates` plus, when `rates.file` is set,
// a JSON or YAML rate file re-read whenever its modification time (or size) changes, so rates refresh
// without a restart. A file that cannot be read or does not validate is reported and the last good
// content is kept (or the inline table alone, before any good read). File pairs override inline pairs.
import { stat, readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { RatesFileSchema, type RatesFile } from '../../config/payments-fees.js';
import { validateAgainstSchema } from '../../config/validate.js';
import type { FeesSettings } from '../domain/fees/quote.js';
import type { RateEntry, RateTable } from '../domain/fees/fx.js';

// The age limit (maxAgeSeconds) is applied where a rate is used, not here.
type RatesSettings = Omit<FeesSettings['rates'], 'maxAgeSeconds'>;

interface Loaded {
  readonly mtimeMs: number;
  readonly size: number;
  readonly content: RatesFile;
}

export class RateSource {
  private loaded: Loaded | undefined;

  constructor(
    private readonly settings: RatesSettings,
    private readonly onError: (error: unknown, file: string) => void = () => undefined,
  ) {}

  /** The table to quote with now (re-reads the rate file first when it changed). */
  async current(): Promise<RateTable> {
    const file = this.settings.file;
    if (file !== undefined) await this.refresh(file);
    return this.table();
  }

  private async refresh(file: string): Promise<void> {
    try {
      const info = await stat(file);
      if (this.loaded?.mtimeMs === info.mtimeMs && this.loaded.size === info.size) return;
      const text = await readFile(file, 'utf8');
      const content = validateAgainstSchema(RatesFileSchema, parseYaml(text), 'rates file');
      this.loaded = { mtimeMs: info.mtimeMs, size: info.size, content };
    } catch (error) {
      this.onError(error, file);
    }
  }

  private table(): RateTable {
    const inline = this.settings;
    const pairs: Record<string, RateEntry> = {};
    for (const [pair, entry] of Object.entries(inline.pairs)) {
      const asOf = entry.asOf ?? inline.asOf;
      pairs[pair] = { ...entry, ...(asOf !== undefined ? { asOf } : {}) };
    }
    const file = this.loaded?.content;
    if (file && inline.file !== undefined) {
      const source = file.source ?? `file:${basename(inline.file)}`;
      for (const [pair, entry] of Object.entries(file.pairs)) {
        const asOf = entry.asOf ?? file.asOf;
        pairs[pair] = { ...entry, source, ...(asOf !== undefined ? { asOf } : {}) };
      }
    }
    return { source: inline.source, marginBasisPoints: inline.marginBasisPoints, pairs };
  }
}

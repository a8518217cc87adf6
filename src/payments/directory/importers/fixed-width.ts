// Helpers for the fixed-width directory files (Federal Reserve, Bundesbank).
import type { DirectoryEntry, ParsedFile, SkippedRecord, SourcedEntry } from '../types.js';

/** Characters `from`..`to` (1-based, inclusive), trimmed. */
export function field(line: string, from: number, to: number): string {
  return line.slice(from - 1, to).trim();
}

/** Left-aligned, space-padded, cut to `width`. */
export function pad(value: string | undefined, width: number): string {
  return (value ?? '').slice(0, width).padEnd(width, ' ');
}

/** Splits a file into lines, numbering from 1, ignoring a final empty line and CR of CRLF. */
export function lines(text: string): { line: number; text: string }[] {
  const parts = text.split('\n');
  if (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts.map((t, i) => ({ line: i + 1, text: t.endsWith('\r') ? t.slice(0, -1) : t }));
}

export function isBlank(text: string): boolean {
  return text.trim() === '';
}

/**
 * A file of one record per line: each non-blank line parsed on its own, kept with its line number, or
 * skipped with the reason `parseLine` gave (a string).
 */
export function parseRecordLines(
  text: string,
  parseLine: (record: string) => DirectoryEntry | string,
): ParsedFile {
  const entries: SourcedEntry[] = [];
  const skipped: SkippedRecord[] = [];
  for (const { line, text: record } of lines(text)) {
    if (isBlank(record)) continue;
    const result = parseLine(record);
    if (typeof result === 'string') skipped.push({ line, reason: result });
    else entries.push({ line, entry: result });
  }
  return { entries, skipped };
}

export function titleCase(text: string): string {
  return text.toLowerCase().replace(/\b([a-z])/g, (m) => m.toUpperCase());
}

// Size of the demo catalogue's tools/list, per tool and per protocol revision: bytes as listed and an
// estimated token count. Not part of npm test. Run after a build: npx tsc -p . && node bench/catalogue/size.mjs
// (add --json for machine-readable output).
//
// The token count is an ESTIMATE, not a tokenizer: JSON text is cut into letter runs (split at camelCase
// boundaries), digit runs, whitespace runs and punctuation; a letter run counts one token per 5 letters
// (rounded up), a digit run one per 3 digits, a punctuation run one per 2 characters, whitespace is free
// when it is a single space. On this schema-heavy JSON it comes to about one token per 2.8 bytes, more
// than the bytes/4 rule of thumb (printed alongside): JSON punctuation and enum codes tokenize poorly, so
// the heuristic errs on the high side. Use the figures to compare shapes, not as exact counts.
const dist = new URL('../../dist/src/', import.meta.url);
const { loadConfig } = await import(new URL('config/load.js', dist).href);
const { loadCatalogue } = await import(new URL('gateway/catalogue/load.js', dist).href);
const { describeTool } = await import(new URL('gateway/mcp/tool-listing.js', dist).href);
const { compactSchema, MAX_SHOWN_OUTPUT_BYTES } = await import(
  new URL('gateway/catalogue/compact.js', dist).href
);

const REVISIONS = ['2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'];

export function estimateTokens(text) {
  let tokens = 0;
  for (const [piece] of text.matchAll(/[A-Za-z]+|\d+|\s+|[^\sA-Za-z\d]+/g)) {
    if (/^[A-Za-z]/.test(piece)) {
      for (const part of piece.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+/g) ?? [piece])
        tokens += Math.ceil(part.length / 5);
    } else if (/^\d/.test(piece)) tokens += Math.ceil(piece.length / 3);
    else if (/^\s/.test(piece)) tokens += piece === ' ' ? 0 : 1;
    else tokens += Math.ceil(piece.length / 2);
  }
  return tokens;
}

// full: the schemas as the gateway validates with them (what every revision showed before issue 13);
// compact: what tools/list shows by default (gateway.mcp.schemaView).
const views = {
  full: (tool, version) => JSON.stringify(describeTool(tool, version, 'full')),
  compact: (tool, version) => JSON.stringify(describeTool(tool, version, 'compact')),
};

const config = loadConfig({ env: {} });
const catalogue = await loadCatalogue(config.gateway.backends);
const rows = [];
for (const revision of REVISIONS) {
  for (const [view, shape] of Object.entries(views)) {
    const tools = catalogue.tools.map((tool) => {
      const text = shape(tool, revision);
      return { tool: tool.name, bytes: Buffer.byteLength(text), tokens: estimateTokens(text) };
    });
    // The tools array of a tools/list result: `[` + tools joined by `,` + `]`.
    const list = `[${catalogue.tools.map((tool) => shape(tool, revision)).join(',')}]`;
    rows.push({
      revision,
      view,
      tools,
      total: { bytes: Buffer.byteLength(list), tokens: estimateTokens(list) },
    });
  }
}

// Each lever alone and the levers together, at 2025-06-18 and later: the whole tools array in bytes.
// `outputs` is the outputSchema policy: all shown, shown up to MAX_SHOWN_OUTPUT_BYTES, or none.
function leverTotal(options, outputs) {
  const tools = catalogue.tools.map((tool) => {
    const shown = describeTool(tool, '2025-06-18', 'full');
    const compact = (schema) =>
      options ? compactSchema(schema, { ...options, names: tool.schemaNames }) : schema;
    shown.inputSchema = compact(tool.inputSchema);
    delete shown.outputSchema;
    if (tool.outputSchema && outputs !== 'none') {
      const out = compact(tool.outputSchema);
      if (outputs === 'all' || Buffer.byteLength(JSON.stringify(out)) <= MAX_SHOWN_OUTPUT_BYTES)
        shown.outputSchema = out;
    }
    return shown;
  });
  return Buffer.byteLength(JSON.stringify(tools));
}
const none = { defs: false, nestedDescriptions: true, lengths: true, nestedClosed: true };
const levers = [
  ['none (full schemas)', null, 'all'],
  ['$defs for repeated subschemas', { ...none, defs: true }, 'all'],
  ['no nested descriptions', { ...none, nestedDescriptions: false }, 'all'],
  ['no minLength/maxLength', { ...none, lengths: false }, 'all'],
  ['no nested additionalProperties: false', { ...none, nestedClosed: false }, 'all'],
  [`outputSchema only up to ${MAX_SHOWN_OUTPUT_BYTES} B`, null, 'small'],
  ['no outputSchema at all', null, 'none'],
  ['$defs + small outputSchemas', { ...none, defs: true }, 'small'],
  [
    '$defs + no nested descriptions + small outputSchemas',
    { ...none, defs: true, nestedDescriptions: false },
    'small',
  ],
  [
    '$defs + no nested descriptions + no lengths + small outputSchemas',
    { defs: true, nestedDescriptions: false, lengths: false, nestedClosed: true },
    'small',
  ],
  [
    'all five (the compact view)',
    { defs: true, nestedDescriptions: false, lengths: false, nestedClosed: false },
    'small',
  ],
].map(([lever, options, outputs]) => ({ lever, bytes: leverTotal(options, outputs) }));

if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ rows, levers }, null, 2));
} else {
  const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
  for (const row of rows) {
    console.log(
      `\n${row.revision} ${row.view}: ${row.total.bytes} B (${kb(row.total.bytes)}), ~${row.total.tokens} tokens est. (bytes/4: ${Math.ceil(row.total.bytes / 4)})`,
    );
    for (const t of [...row.tools].sort((a, b) => b.bytes - a.bytes))
      console.log(
        `  ${t.tool.padEnd(26)} ${String(t.bytes).padStart(7)} B  ~${String(t.tokens).padStart(6)} tok`,
      );
  }
  console.log('\nLevers at 2025-06-18 and later (whole tools array, bytes):');
  for (const { lever, bytes } of levers)
    console.log(`  ${lever.padEnd(56)} ${String(bytes).padStart(7)}`);
}

#!/usr/bin/env node
// Writes the TypeScript types of the Payment Order Service's OpenAPI document (one source, two forms):
// src/payments/openapi/payment-order.yaml → src/payments/openapi/payment-order.generated.ts, with
// openapi-typescript (a devDependency: only this script runs it) and formatted by the project's prettier.
// The component schemas become named types (PaymentRecord, Amount, Schedule …; the domain names
// PaymentRecord `PaymentOrder` in src/payments/domain/payment-order.ts) and each operation's request body
// its type (`operations['createPayment']['requestBody']`). The YAML stays the runtime schema: the
// service's Ajv validation compiles it at startup; these types only describe what that validation lets in.
// Usage: node scripts/generate-payment-order-types.mjs            (npm run generate:types) writes the file
//        node scripts/generate-payment-order-types.mjs --check    exits 1 when the file is not what the
//                                                                  YAML generates (test/payments runs it)
//        --yaml FILE / --out FILE                                  another document or output (tests)
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import prettier from 'prettier';
import { parse } from 'yaml';

const root = new URL('..', import.meta.url).pathname;
const option = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
};
const yamlFile = option('yaml', join(root, 'src/payments/openapi/payment-order.yaml'));
const outFile = option('out', join(root, 'src/payments/openapi/payment-order.generated.ts'));
const check = process.argv.includes('--check');

const HEADER = `// GENERATED FILE — do not edit. Generated from src/payments/openapi/payment-order.yaml by
// scripts/generate-payment-order-types.mjs (npm run generate:types) with openapi-typescript; a test fails
// when the YAML changes without regenerating.
`;

const document = parse(readFileSync(yamlFile, 'utf8'));
const ast = await openapiTS(document, {
  rootTypes: true, // `export type Amount = components['schemas']['Amount']` for every component
  rootTypesNoSchemaPrefix: true,
  defaultNonNullable: false, // the service applies no defaults: a field with one may still be absent
  silent: true,
});
const source = await prettier.format(HEADER + '\n' + astToString(ast), {
  ...(await prettier.resolveConfig(outFile)),
  filepath: outFile,
});

if (!check) {
  writeFileSync(outFile, source);
  console.log(`wrote ${relative(root, outFile)}`);
} else {
  let current = '';
  try {
    current = readFileSync(outFile, 'utf8');
  } catch {
    // missing: differs
  }
  if (current !== source) {
    console.error(
      `${relative(root, outFile)} is not what ${relative(root, yamlFile)} generates: run npm run generate:types`,
    );
    process.exit(1);
  }
  console.log(`${relative(root, outFile)} is up to date`);
}

// Checks response bodies against the OpenAPI component schemas (BankDetails, FeeQueryRecord) by feeding
// them to the payment service's request validator through a test-only operation per schema.
import { readOpenApiDocument } from '../../../src/payments/http/documents.js';
import { createOperationValidator } from '../../../src/payments/http/validation.js';
import type { ProblemFieldError } from '../../../src/shared/http/problem.js';

const SCHEMAS = ['BankDetails', 'FeeQueryRecord'] as const;

const document = structuredClone(readOpenApiDocument('payment-order'));
const paths = document['paths'] as Record<string, unknown>;
for (const name of SCHEMAS) {
  paths[`/__response/${name}`] = {
    post: {
      operationId: `response${name}`,
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } },
      },
      responses: { '200': { description: 'test only' } },
    },
  };
}
const validator = createOperationValidator(document);

export function responseErrors(
  schema: (typeof SCHEMAS)[number],
  body: unknown,
): ProblemFieldError[] {
  return validator.validate(`response${schema}`, { body });
}

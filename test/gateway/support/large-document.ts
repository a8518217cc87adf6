// An OpenAPI 3.1 document with many operations (default 1,000), built in memory for scale tests and
// the tools/list benchmark.
export function largeDocument(operations = 1000): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < operations; i++) {
    const n = String(i).padStart(4, '0');
    paths[`/resources${n}/{id}`] = {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      [i % 2 === 0 ? 'get' : 'post']: {
        operationId: `operation${n}`,
        summary: `Operation number ${i}`,
        description: `Does thing ${i} to a resource; generated for scale tests.`,
        parameters: [{ name: 'filter', in: 'query', schema: { type: 'string', maxLength: 40 } }],
        responses: {
          '200': {
            description: 'OK',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: { id: { type: 'string' }, value: { type: 'integer' } },
                },
              },
            },
          },
        },
      },
    };
  }
  return { openapi: '3.1.0', info: { title: 'Large', version: '1' }, paths };
}

// Governance rules (issue 25): the current set with its version (ETag), replacing it (compiled and checked
// first, 422 naming the rule and field; If-Match or `version` for optimistic concurrency; audited), the
// stored versions, and the dry run of a sample call. Every replica applies a saved set within
// gateway.governance.policyRefreshMs.
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { PolicyRuleSchema } from '../../../config/gateway-governance.js';
import { AdminError } from '../errors.js';
import { route, type AdminRoute } from '../http/route.js';
import { DryRunSchema, PolicyPutSchema, type PolicyService } from '../policies.js';

const TAGS = ['policies'];
const Str = Type.String();

const PolicySetSchema = Type.Object({
  source: Type.Union([Type.Literal('stored'), Type.Literal('configuration')]),
  version: Type.Integer({ description: '0: the configuration file’s rules (nothing stored yet)' }),
  rules: Type.Array(PolicyRuleSchema),
  createdAt: Type.Optional(Str),
  createdBy: Type.Optional(Str),
});

const PolicyVersionSchema = Type.Object({
  version: Type.Integer(),
  rules: Type.Array(PolicyRuleSchema),
  createdAt: Str,
  createdBy: Str,
});

const TraceSchema = Type.Object({
  ruleId: Str,
  matched: Type.Boolean(),
  error: Type.Optional(Str),
});

const BudgetSchema = Type.Object({
  ruleId: Str,
  scope: Str,
  period: Str,
  limitMinor: Type.Integer(),
  currency: Str,
});

const DryRunAnswerSchema = Type.Object({
  rules: Type.Union([
    Type.Literal('stored'),
    Type.Literal('configuration'),
    Type.Literal('unsaved'),
  ]),
  version: Type.Union([Type.Integer(), Type.Null()]),
  decision: Type.Object({
    effect: Type.Union(['allow', 'deny', 'confirm', 'approve'].map((e) => Type.Literal(e))),
    ruleId: Type.Union([Str, Type.Null()]),
    policyVersion: Type.Integer(),
    message: Type.Optional(Str),
    approverRole: Type.Optional(Str),
    budgets: Type.Array(BudgetSchema),
    trace: Type.Array(TraceSchema),
  }),
  decidedBy: Type.Optional(
    Type.Object({
      index: Type.Integer(),
      id: Str,
      effect: Str,
      when: Str,
      description: Type.Optional(Str),
    }),
  ),
  explanation: Str,
  money: Type.Optional(
    Type.Object({ amount: Str, currency: Str, baseCurrency: Str, baseMinor: Type.Integer() }),
  ),
  call: Type.Object({
    tool: Type.Object({
      name: Str,
      backend: Str,
      securityClass: Str,
      annotations: Type.Record(Str, Type.Unknown()),
    }),
    caller: Type.Record(Str, Type.Unknown()),
    at: Str,
    argumentsHash: Str,
  }),
});

export function policyRoutes(services: { readonly policies: PolicyService }): AdminRoute[] {
  const policies = services.policies;
  return [
    route({
      method: 'GET',
      path: '/policies',
      summary:
        'The governance rules in force and their version (admin); the ETag is the version to send as If-Match',
      tags: TAGS,
      response: PolicySetSchema,
      errors: [403],
      handle: async ({ actor }, reply) => {
        const set = await policies.current(actor);
        void reply.header('etag', `"${set.version}"`);
        return set;
      },
    }),
    route({
      method: 'PUT',
      path: '/policies',
      summary:
        'Replace the rule set (admin): compiled and checked first (422 naming the rule and field), stored as the next version when If-Match (or `version`) is the current one (412 otherwise); audited',
      tags: TAGS,
      body: PolicyPutSchema,
      response: PolicySetSchema,
      errors: [400, 403, 412, 422, 428],
      handle: async ({ actor, body }, reply) => {
        const expected = expectedVersion(reply, body.version);
        const saved = await policies.save(actor, body.rules, expected);
        void reply.header('etag', `"${saved.version}"`);
        return saved;
      },
    }),
    route({
      method: 'GET',
      path: '/policies/versions',
      summary: 'The stored rule sets, newest first (admin)',
      tags: TAGS,
      query: Type.Object({
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
      }),
      response: Type.Object({ versions: Type.Array(PolicyVersionSchema) }),
      errors: [400, 403],
      handle: async ({ actor, query }) => ({
        versions: await policies.versions(actor, query.limit),
      }),
    }),
    route({
      method: 'POST',
      path: '/policies/dry-run',
      summary:
        'The decision for a sample call (admin): which rule decided and why, the trace and the budgets — of the current rules, or of unsaved `rules`',
      tags: TAGS,
      body: DryRunSchema,
      response: DryRunAnswerSchema,
      errors: [400, 403, 404, 422],
      handle: ({ actor, body }) => policies.dryRun(actor, body),
    }),
  ];
}

/** The version a PUT replaces: If-Match ("3", W/"3" or *-free list of one) or the body's `version`. */
function expectedVersion(reply: FastifyReply, bodyVersion: number | undefined): number {
  const header = reply.request.headers['if-match'];
  if (header === undefined) {
    if (bodyVersion !== undefined) return bodyVersion;
    throw new AdminError(
      'POLICY_VERSION_REQUIRED',
      'Name the version these rules replace: send If-Match with the ETag of GET /policies, or `version` in the body.',
    );
  }
  const match = /^\s*(?:W\/)?"?(\d{1,15})"?\s*$/.exec(header);
  if (match === null)
    throw new AdminError('VALIDATION_FAILED', 'invalid If-Match: expected the ETag "<version>"', [
      { field: 'If-Match', pointer: '', message: 'expected the ETag "<version>"' },
    ]);
  const version = Number(match[1]);
  if (bodyVersion !== undefined && bodyVersion !== version)
    throw new AdminError(
      'VALIDATION_FAILED',
      `invalid body: version ${bodyVersion} and If-Match ${version} disagree`,
      [{ field: 'version', message: `disagrees with If-Match ${version}` }],
    );
  return version;
}

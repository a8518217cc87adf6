// Approvals of governed calls (issue 25): the pending ones the caller may decide (admins: all), one
// approval with the call's details, and approve / reject by a user the approval's rule allows.
import { Type } from '@sinclair/typebox';
import { stringEnum } from '../../../shared/json-schema/string-enum.js';
import { route, type AdminRoute } from '../http/route.js';
import type { AdminServices } from '../services.js';
import { IdParams, listSchema } from './schemas.js';

const TAGS = ['approvals'];
const STATUSES = ['pending', 'approved', 'rejected', 'expired', 'used', 'all'] as const;

const ListQuery = Type.Object({
  status: Type.Optional(
    stringEnum(STATUSES, { description: 'which approvals (default: pending ones you may decide)' }),
  ),
});

const RejectBody = Type.Object(
  { reason: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })) },
  { additionalProperties: false },
);

const Nullable = (schema: Record<string, unknown>) => ({ anyOf: [schema, { type: 'null' }] });

export const ApprovalSchema = {
  type: 'object',
  required: ['id', 'kind', 'status', 'binding', 'callId', 'url', 'createdAt', 'expiresAt'],
  properties: {
    id: { type: 'string' },
    kind: { enum: ['confirm', 'approve'] },
    status: { enum: ['pending', 'approved', 'rejected', 'expired', 'used'] },
    binding: {
      type: 'object',
      properties: {
        subscription: { type: 'string' },
        subject: Nullable({ type: 'string' }),
        tool: { type: 'string' },
        argumentsHash: { type: 'string' },
        policyVersion: { type: 'integer' },
      },
    },
    callId: { type: 'string' },
    ruleId: Nullable({ type: 'string' }),
    approverRole: { type: 'string' },
    url: { type: 'string', format: 'uri', description: 'the approval page' },
    createdAt: { type: 'string', format: 'date-time' },
    expiresAt: { type: 'string', format: 'date-time' },
    decidedBy: { type: 'string' },
    decidedByName: { type: 'string' },
    decidedAt: { type: 'string', format: 'date-time' },
    decisionReason: { type: 'string' },
    usedAt: { type: 'string', format: 'date-time' },
    initiator: {
      type: 'object',
      properties: { issuer: Nullable({ type: 'string' }), subject: Nullable({ type: 'string' }) },
    },
    details: {
      type: 'object',
      properties: {
        application: { type: 'string' },
        environment: { type: 'string' },
        backend: { type: 'string' },
        arguments: { type: 'object' },
        money: { type: 'object' },
        message: { type: 'string' },
      },
    },
  },
};

export function approvalRoutes(services: AdminServices): AdminRoute[] {
  const { approvals } = services;
  return [
    route({
      method: 'GET',
      path: '/approvals',
      summary:
        'Approvals of governed calls: by default the pending ones you may decide (admins: all pending)',
      tags: TAGS,
      query: ListQuery,
      response: listSchema('approvals', ApprovalSchema),
      errors: [400],
      handle: async ({ actor, query }) => ({
        approvals: await approvals.list(actor, query.status ?? 'pending'),
      }),
    }),
    route({
      method: 'GET',
      path: '/approvals/{id}',
      summary:
        'One approval with the call it is for (its initiator, whoever may decide it, admins)',
      tags: TAGS,
      params: IdParams,
      response: ApprovalSchema,
      errors: [404],
      handle: ({ actor, params }) => approvals.get(actor, params.id),
    }),
    route({
      method: 'POST',
      path: '/approvals/{id}/approve',
      summary:
        'Approve: confirm — the user who made the call; approve — a holder of the rule’s role, never the initiator',
      tags: TAGS,
      params: IdParams,
      response: ApprovalSchema,
      errors: [403, 404, 409],
      handle: ({ actor, params }) => approvals.approve(actor, params.id),
    }),
    route({
      method: 'POST',
      path: '/approvals/{id}/reject',
      summary: 'Reject (who may approve may reject), with an optional reason the agent relays',
      tags: TAGS,
      params: IdParams,
      body: RejectBody,
      bodyOptional: true,
      response: ApprovalSchema,
      errors: [400, 403, 404, 409],
      handle: ({ actor, params, body }) => approvals.reject(actor, params.id, body.reason),
    }),
  ];
}

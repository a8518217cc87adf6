// Configuration of governed actions' consent (issue 25): how long an approval stays valid and where the
// gateway announces a new one (`gateway.governance.approvals`, docs/configuration.md).
import { Type, type Static } from '@sinclair/typebox';

export const ApprovalWebhookSchema = Type.Object(
  {
    url: Type.String({
      pattern: '^https?://',
      description: 'where a JSON announcement of every new approval is POSTed',
    }),
    secret: Type.String({
      minLength: 16,
      description:
        'HMAC-SHA256 key of the `Toolgate-Signature` header over `<timestamp>.<body>` (use ${env:NAME})',
    }),
    timeoutMs: Type.Integer({ minimum: 100, maximum: 60000, default: 5000 }),
    retries: Type.Integer({
      minimum: 0,
      maximum: 10,
      default: 3,
      description: 'further attempts after a failed one, with doubling back-off from 500 ms',
    }),
  },
  { additionalProperties: false },
);

export const GovernanceApprovalsSchema = Type.Object(
  {
    ttlSeconds: Type.Integer({
      minimum: 30,
      maximum: 7 * 86400,
      default: 900,
      description:
        'how long an approval may be decided and its receipt used, from the moment the call asked for it',
    }),
    webhook: Type.Optional(ApprovalWebhookSchema),
  },
  { additionalProperties: false, default: {} },
);

export type GovernanceApprovalsConfig = Static<typeof GovernanceApprovalsSchema>;
export type ApprovalWebhookConfig = Static<typeof ApprovalWebhookSchema>;

export const GovernanceSchema = Type.Object(
  { approvals: GovernanceApprovalsSchema },
  { additionalProperties: false, default: {} },
);

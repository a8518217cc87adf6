// Announces a new approval to a configured webhook (gateway.governance.approvals.webhook), so approvers
// learn of it without watching the portal. Fire and forget: the call that asked for the approval never
// waits for it. Each POST carries `Toolgate-Timestamp` (Unix seconds) and `Toolgate-Signature:
// v1=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>`, so a receiver can check origin and freshness;
// a failed attempt (network error, timeout, non-2xx) is retried with doubling back-off, and a final
// failure is logged with the approval's id and the receiver's origin only — never the secret or the body.
import type { Logger } from '../../../shared/log/logger.js';
import {
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  webhookSignature,
} from '../../../shared/webhook-signature.js';
import type { ApprovalWebhookConfig } from '../../../config/gateway-governance.js';
import type { ApprovalRecord } from './types.js';

export { SIGNATURE_HEADER, TIMESTAMP_HEADER, webhookSignature };
const FIRST_BACKOFF_MS = 500;

/** What the webhook receives: enough to route the approval to a person, no secret of anyone. */
export function announcement(approval: ApprovalRecord): Record<string, unknown> {
  return {
    type: 'approval.created',
    approval: {
      id: approval.id,
      kind: approval.kind,
      url: approval.url,
      tool: approval.binding.tool,
      application: approval.details.application,
      environment: approval.details.environment,
      subscription: approval.binding.subscription,
      initiator: approval.binding.subject,
      approverRole: approval.approverRole ?? null,
      ruleId: approval.ruleId,
      message: approval.details.message ?? null,
      money: approval.details.money ?? null,
      callId: approval.callId,
      createdAt: approval.createdAt,
      expiresAt: approval.expiresAt,
    },
  };
}

export interface WebhookOptions {
  readonly config: Readonly<ApprovalWebhookConfig>;
  readonly logger: Pick<Logger, 'warn' | 'debug'>;
  readonly clock?: () => Date;
  /** Waits between attempts (tests pass a shorter one). */
  readonly sleep?: (ms: number) => Promise<void>;
}

export class ApprovalWebhook {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly options: WebhookOptions) {}

  /** Starts delivering the announcement and returns at once. */
  notify(approval: ApprovalRecord): void {
    const delivery = this.deliver(approval).finally(() => this.inFlight.delete(delivery));
    this.inFlight.add(delivery);
  }

  /** Resolves when every delivery started so far has ended (shutdown). */
  async settled(): Promise<void> {
    await Promise.all([...this.inFlight]);
  }

  private async deliver(approval: ApprovalRecord): Promise<void> {
    const { config, logger } = this.options;
    const clock = this.options.clock ?? (() => new Date());
    const sleep =
      this.options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref()));
    const body = JSON.stringify(announcement(approval));
    const origin = new URL(config.url).origin;
    let last = '';
    for (let attempt = 0; attempt <= config.retries; attempt += 1) {
      if (attempt > 0) await sleep(FIRST_BACKOFF_MS * 2 ** (attempt - 1));
      const timestamp = Math.floor(clock().getTime() / 1000);
      try {
        const response = await fetch(config.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            [TIMESTAMP_HEADER]: String(timestamp),
            [SIGNATURE_HEADER]: webhookSignature(config.secret, timestamp, body),
            'toolgate-approval-id': approval.id,
          },
          body,
          redirect: 'manual',
          signal: AbortSignal.timeout(config.timeoutMs),
        });
        await response.body?.cancel().catch(() => undefined);
        if (response.status >= 200 && response.status < 300) {
          logger.debug(
            { approval: approval.id, attempt: attempt + 1 },
            'approval webhook delivered',
          );
          return;
        }
        last = `HTTP ${response.status}`;
      } catch (error) {
        last = (error as Error).name === 'TimeoutError' ? 'timed out' : 'unreachable';
      }
    }
    logger.warn(
      { approval: approval.id, receiver: origin, attempts: config.retries + 1, last },
      'approval webhook not delivered',
    );
  }
}

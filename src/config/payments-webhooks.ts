// Configuration of the payment service's status notifications (docs/payments-notifications.md):
// `payments.webhooks`, the receivers (URL, signing secret, the event types they want), and
// `payments.webhookDelivery`, how the delivery worker sends (timeouts, size limit, retries, back-off).
import { Type, type Static } from '@sinclair/typebox';
import { insecureUrlReason } from '../shared/secure-url.js';
import { ConfigError } from './errors.js';

/** The event types a receiver may subscribe to (one per kind of status change). */
export const WEBHOOK_EVENT_TYPES = [
  'payment.created',
  'payment.status_changed',
  'payment.cancelled',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

const WebhookEndpoint = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'where the events are POSTed; https, or http on a loopback host only',
    }),
    secret: Type.String({
      minLength: 32,
      maxLength: 512,
      description: 'HMAC-SHA256 key of the Toolgate-Signature header (never logged)',
    }),
    events: Type.Optional(
      Type.Array(Type.Union(WEBHOOK_EVENT_TYPES.map((t) => Type.Literal(t))), {
        minItems: 1,
        uniqueItems: true,
        description: 'the event types sent to this receiver (default: all)',
      }),
    ),
  },
  { additionalProperties: false },
);

/** Spread into PaymentsSchema: payments.webhooks, payments.webhookDelivery. */
export const PaymentsWebhooksProperties = {
  webhooks: Type.Array(WebhookEndpoint, {
    default: [],
    maxItems: 16,
    description: 'receivers of signed status notifications',
  }),
  webhookDelivery: Type.Object(
    {
      enabled: Type.Boolean({
        default: true,
        description: 'run the delivery worker inside the payment service',
      }),
      pollIntervalMs: Type.Integer({ minimum: 50, maximum: 60000, default: 1000 }),
      batchSize: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
      timeoutMs: Type.Integer({
        minimum: 100,
        maximum: 30000,
        default: 5000,
        description: 'one attempt: connect, send and read the answer',
      }),
      maxResponseBytes: Type.Integer({
        minimum: 0,
        maximum: 1048576,
        default: 16384,
        description: "at most this much of a receiver's answer is read",
      }),
      maxAttempts: Type.Integer({
        minimum: 1,
        maximum: 50,
        default: 12,
        description: 'attempts before a delivery is dead-lettered',
      }),
      initialBackoffSeconds: Type.Integer({ minimum: 1, maximum: 3600, default: 10 }),
      maxBackoffSeconds: Type.Integer({ minimum: 1, maximum: 86400, default: 3600 }),
    },
    { additionalProperties: false, default: {} },
  ),
};

export type WebhookEndpointConfig = Static<typeof WebhookEndpoint>;

/** What the schema cannot express: secure URLs, one entry per URL, back-off bounds in order. */
export function checkWebhooksConfig(payments: {
  readonly webhooks: readonly { readonly url: string }[];
  readonly webhookDelivery: {
    readonly initialBackoffSeconds: number;
    readonly maxBackoffSeconds: number;
  };
}): void {
  const seen = new Set<string>();
  payments.webhooks.forEach((endpoint, i) => {
    const insecure = insecureUrlReason(endpoint.url);
    if (insecure !== undefined) throw new ConfigError(`payments.webhooks.${i}.url: ${insecure}`);
    const normalised = new URL(endpoint.url).href;
    if (seen.has(normalised))
      throw new ConfigError(`payments.webhooks.${i}.url: listed twice (${normalised})`);
    seen.add(normalised);
  });
  const d = payments.webhookDelivery;
  if (d.maxBackoffSeconds < d.initialBackoffSeconds) {
    throw new ConfigError(
      `payments.webhookDelivery.maxBackoffSeconds: ${d.maxBackoffSeconds} is below initialBackoffSeconds (${d.initialBackoffSeconds})`,
    );
  }
}

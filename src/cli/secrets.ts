// Secret values found in the configuration, registered with the log scrubber so they never reach a log.
import type { FrozenConfig } from '../config/schema.js';
import { redisUrlSecrets } from '../shared/redis-url.js';

export function configuredSecrets(config: FrozenConfig): string[] {
  const secrets = [...config.secrets];
  const shared = config.payments.identity.sharedSecret;
  if (shared !== undefined) secrets.push(...(typeof shared === 'string' ? [shared] : shared));
  secrets.push(...config.payments.operator.tokens, ...config.payments.bankLookup.apiKeys);
  secrets.push(...config.payments.webhooks.map((w) => w.secret));
  for (const backend of config.gateway.backends) {
    secrets.push(...Object.values(backend.injectHeaders));
    if (backend.identity.sharedSecret !== undefined) secrets.push(backend.identity.sharedSecret);
    // Upstream MCP servers (issue 28): their own credentials and the gateway's client secrets.
    secrets.push(...Object.values(backend.mcp?.headers ?? {}));
    const exchange = backend.identity.tokenExchange?.clientSecret;
    if (exchange !== undefined) secrets.push(exchange);
    const delegation = backend.identity.delegation?.clientSecret;
    if (delegation !== undefined) secrets.push(delegation);
  }
  // The development server's token exchange clients (issue 28).
  for (const client of config.gateway.auth.devIdentityProvider.tokenExchange.clients)
    secrets.push(client.clientSecret);
  if (config.gateway.federation.tokenKey !== undefined)
    secrets.push(config.gateway.federation.tokenKey);
  if (config.gateway.auth.assertionKey !== undefined)
    secrets.push(config.gateway.auth.assertionKey);
  if (config.admin.bootstrapToken !== undefined) secrets.push(config.admin.bootstrapToken);
  const pepper = config.gateway.auth.subscriptionKeys.pepper;
  if (pepper !== undefined) secrets.push(pepper);
  const requestStateSecret = config.gateway.mcp.requestStateSecret;
  if (requestStateSecret !== undefined) secrets.push(requestStateSecret);
  const webhook = config.gateway.governance.approvals.webhook;
  if (webhook !== undefined) secrets.push(webhook.secret);
  for (const url of [config.gateway.database.url, config.payments.database.url]) {
    if (url === undefined) continue;
    try {
      const password = decodeURIComponent(new URL(url).password);
      if (password) secrets.push(password);
    } catch {
      // A malformed URL is reported by the store when it connects.
    }
  }
  // Redis URLs may carry two passwords (the data nodes' and, for Sentinel, `sentinelPassword=`).
  for (const url of [config.gateway.redis.url, config.gateway.rateLimit.redis.url])
    if (url !== undefined) secrets.push(...redisUrlSecrets(url));
  return secrets;
}

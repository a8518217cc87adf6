// `toolgate start|gateway|payments`: run the services until SIGTERM/SIGINT, then shut down gracefully.
// `toolgate gateway --workers N` runs N gateway processes behind one port (../workers.ts); each worker is
// this same command, run by node:cluster, and prints no summary of its own.
import cluster from 'node:cluster';
import { join } from 'node:path';
import { loadConfig } from '../../config/load.js';
import type { FrozenConfig } from '../../config/schema.js';
import { createLogger, type Logger } from '../../shared/log/logger.js';
import { shutdownOnSignal } from '../../shared/lifecycle.js';
import type { Service } from '../../shared/service.js';
import { openGatewayService } from '../../gateway/service.js';
import { openPaymentsService } from '../../payments/service.js';
import { openAdminService } from '../../gateway/admin/service.js';
import { COMMON_OPTIONS, parseCommandArgs } from '../args.js';
import { parseWorkers, runWorkers, MAX_WORKERS } from '../workers.js';
import { configuredSecrets } from '../secrets.js';
import { reconfigure } from '../../config/load.js';
import { mcpUrl } from '../../config/gateway-identity.js';
import { devIdpIssuer } from '../../gateway/auth/settings.js';
import { reservePort, type PortReservation } from '../../shared/http/port-reservation.js';
import {
  demoAccess,
  demoAdminToken,
  type AdminTokenNotice,
  mcpServersBlock,
  planDemo,
  withDemoWiring,
  type DemoAccess,
  type DemoPlan,
} from '../demo.js';
import type { CliContext, Command } from '../context.js';
import { resolveTracing } from '../../config/telemetry.js';
import { startTracing, type Tracing } from '../../shared/telemetry/tracing.js';
import { packageVersion } from '../version.js';

type Part = 'gateway' | 'payments' | 'admin';

interface ServeSpec {
  readonly name: string;
  readonly summary: string;
  readonly parts: readonly Part[];
  /** Offers `--workers N` (the gateway alone). */
  readonly workers?: boolean;
}

const WORKER_OPTIONS = { ...COMMON_OPTIONS, workers: { type: 'string' } } as const;

const WORKERS_HELP = `      --workers N    run N gateway processes behind the one port (node:cluster), or "auto" for one
                     per core (1 to ${MAX_WORKERS}; default 1). Needs the Redis rate-limit store
                     (REDIS_URL), a fixed port, and no development authorization server
                     (docs/operations.md, "Using every core")
`;

const OPENERS: Record<Part, (config: FrozenConfig, logger: Logger) => Promise<Service>> = {
  gateway: openGatewayService,
  payments: openPaymentsService,
  admin: openAdminService,
};

export function serveCommand(spec: ServeSpec): Command {
  return {
    name: spec.name,
    summary: spec.summary,
    usage: `Usage: toolgate ${spec.name} [--config FILE] [--json]${spec.workers === true ? ' [--workers N|auto]' : ''}

${spec.summary}

Options:
  -c, --config FILE  configuration file (YAML or JSON); default: $TOOLGATE_CONFIG, else built-in defaults
      --json         print the startup summary as one JSON object instead of text
${spec.workers === true ? WORKERS_HELP : ''}  -h, --help         show this help

Environment overrides: DATABASE_URL, REDIS_URL, TOOLGATE_GATEWAY_HOST, TOOLGATE_GATEWAY_PORT,
TOOLGATE_PAYMENTS_HOST, TOOLGATE_PAYMENTS_PORT, TOOLGATE_ADMIN_HOST, TOOLGATE_ADMIN_PORT,
TOOLGATE_ADMIN_TOKEN, TOOLGATE_LOG_LEVEL, TOOLGATE_DATA_DIR (docs/configuration.md).
${spec.parts.includes('admin') ? 'The admin plane (API and portal) listens on admin.host:admin.port (default 127.0.0.1:8082).\n' : ''}
Stops gracefully on SIGTERM or SIGINT.
`,
    async run(argv, context) {
      const { values } = parseCommandArgs(
        argv,
        spec.workers === true ? WORKER_OPTIONS : COMMON_OPTIONS,
      );
      if (values.help) {
        context.stdout.write(this.usage);
        return 0;
      }
      const workers = parseWorkers(
        'workers' in values && typeof values.workers === 'string' ? values.workers : undefined,
      );
      if (workers > 1 && cluster.isPrimary)
        return serveWithWorkers(spec, argv, values.config, workers, values.json === true, context);
      const reservations: Partial<Record<Part, PortReservation>> = {};
      let config = loadConfig({ configPath: values.config, env: context.env });
      // `start` runs the admin plane unless admin.enabled is false; `toolgate admin` always runs it.
      const parts = spec.parts.filter(
        (part) => part !== 'admin' || spec.parts.length === 1 || config.admin.enabled,
      );
      const services: Service[] = [];
      let logger: Logger | undefined;
      let tracing: Tracing | undefined;
      let stopped: Promise<void> | undefined;
      try {
        config = await withReservedPorts(config, parts, reservations);
        const plan: DemoPlan | undefined =
          parts.includes('gateway') && parts.includes('payments') ? planDemo(config) : undefined;
        if (plan?.wire === true) config = await withDemoWiring(config);
        const created = createLogger({
          level: config.logging.level,
          secrets: configuredSecrets(config),
        });
        logger = created.logger;
        const tracingSettings = resolveTracing(
          config.telemetry.tracing,
          context.env,
          tracingServiceName(parts),
        );
        // The export headers usually hold a collector's credentials: never in a log line.
        if (tracingSettings.enabled)
          for (const value of Object.values(tracingSettings.headers)) created.scrubber.add(value);
        tracing = startTracing(tracingSettings, created.logger, {
          serviceVersion: packageVersion(),
          environment: config.environment,
        });
        for (const part of parts) services.push(await OPENERS[part](config, created.logger));
        const urls: Record<string, string> = {};
        for (const service of services)
          urls[service.name] = await listenOrExplain(
            service,
            config,
            reservations[service.name as Part],
          );
        const access = plan?.access === true ? await demoAccess(config) : undefined;
        if (access) created.scrubber.add(access.subscriptionKey);
        const admin = parts.includes('admin') ? await demoAdminToken(config) : undefined;
        if (admin?.kind === 'demo') created.scrubber.add(admin.token);
        // The signal handlers are in place before the summary says the services are up: whoever reads it
        // may send SIGTERM at once, and a signal that arrives before a handler exists kills the process
        // with no drain (seen under load: the summary line, then death by SIGTERM).
        stopped = shutdownOnSignal(services, {
          graceMs: config.shutdown.graceMs,
          logger,
          signals: context.signals,
        });
        if (!cluster.isWorker)
          printSummary(context, config, urls, values.json === true, access, plan, admin);
      } catch (error) {
        for (const reservation of Object.values(reservations)) reservation.release();
        await Promise.allSettled(services.map((s) => s.close(0)));
        await tracing?.shutdown();
        logger?.flush();
        cluster.worker?.disconnect(); // a worker that failed to start must exit (see below)
        throw error;
      }
      await stopped;
      // The spans of the last requests are exported before the process ends.
      await tracing.shutdown();
      logger.flush();
      // A worker of `--workers N`: its channel to the primary would keep it alive after shutdown.
      cluster.worker?.disconnect();
      return 0;
    },
  };
}

/**
 * service.name when neither OTEL_SERVICE_NAME nor telemetry.tracing.serviceName gives one: one per service
 * command; `toolgate start` runs gateway and payment service in one process with one tracer provider, so
 * its spans carry one name, `toolgate` (the span names and scopes tell the two apart).
 */
export function tracingServiceName(parts: readonly Part[]): string {
  if (parts.includes('gateway') && parts.includes('payments')) return 'toolgate';
  return `toolgate-${parts[0] ?? 'gateway'}`;
}

const PORT_VARIABLES: Record<Part, string> = {
  gateway: 'TOOLGATE_GATEWAY_PORT',
  payments: 'TOOLGATE_PAYMENTS_PORT',
  admin: 'TOOLGATE_ADMIN_PORT',
};

/**
 * Starts a service listening; a port another process holds becomes one line that names the variable and
 * the configuration key that move it (issue 27, trap 8), instead of the bare `listen EADDRINUSE`.
 */
async function listenOrExplain(
  service: Service,
  config: FrozenConfig,
  reservation: PortReservation | undefined,
): Promise<string> {
  try {
    return await service.listen(reservation);
  } catch (error) {
    const part = service.name as Part;
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || !(part in PORT_VARIABLES))
      throw error;
    const { host, port } = config[part];
    throw new Error(
      `port ${port} on ${host} is already in use (the ${part} listener): stop what holds it, or move ` +
        `the ${part} listener with ${PORT_VARIABLES[part]}=<port> (or ${part}.port in the ` +
        `configuration file; 0 picks a free port)`,
      { cause: error },
    );
  }
}

/** The primary of `--workers N`: no service of its own, N gateway workers (../workers.ts). */
async function serveWithWorkers(
  spec: ServeSpec,
  argv: readonly string[],
  configPath: string | undefined,
  count: number,
  json: boolean,
  context: CliContext,
): Promise<number> {
  const config = loadConfig({ configPath, env: context.env });
  const { logger } = createLogger({
    level: config.logging.level,
    secrets: configuredSecrets(config),
  });
  try {
    return await runWorkers({
      config,
      count,
      argv: [spec.name, ...argv],
      env: context.env,
      logger,
      signals: context.signals,
      onListening: (url, pids) => {
        const endpoint = mcpUrl(config);
        if (json) {
          context.stderr.write(
            `${JSON.stringify({ gatewayUrl: url, mcpUrl: endpoint, workers: pids.length, pids })}\n`,
          );
          return;
        }
        context.stderr.write(
          [
            '',
            `toolgate is running: ${pids.length} gateway workers (pids ${pids.join(', ')}).`,
            `  MCP endpoint:       ${endpoint}`,
            `  Gateway health:     ${url}/healthz`,
            'Press Ctrl+C to stop.',
            '',
          ].join('\n'),
        );
      },
    });
  } finally {
    logger.flush();
  }
}

/**
 * For every part configured on port 0, binds a socket now and puts its real port into the
 * configuration, so the URLs derived from it (MCP URL, JWT audience, the demo's payment address) are
 * right before the services are built.
 */
async function withReservedPorts(
  config: FrozenConfig,
  parts: readonly Part[],
  reservations: Partial<Record<Part, PortReservation>>,
): Promise<FrozenConfig> {
  const wanted = parts.filter((part) => config[part].port === 0);
  if (wanted.length === 0) return config;
  const bound: [Part, number][] = [];
  for (const part of wanted) {
    const reservation = await reservePort(config[part].host);
    reservations[part] = reservation;
    bound.push([part, reservation.port]);
  }
  return reconfigure(config, (draft) => {
    for (const [part, port] of bound) draft[part].port = port;
  });
}

function adminTokenLine(admin: AdminTokenNotice): string {
  switch (admin.kind) {
    case 'demo':
      return `${admin.token} (kept in the demo secrets; rotate: npx toolgate admin-token rotate)`;
    case 'configured':
      return '(admin.bootstrapToken from the configuration)';
    case 'stored':
      return '(set; shown only when rotated: npx toolgate admin-token rotate)';
    case 'none':
      return '(none yet: npx toolgate admin-token rotate)';
  }
}

/** When a token expires, as people read it: "26 Dec 2026, 08:48 UTC". */
export function readableTime(iso: string): string {
  const date = new Date(iso);
  const day = date.toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
  const time = date.toLocaleTimeString('en-GB', {
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
    timeZone: 'UTC',
  });
  return `${day}, ${time} UTC`;
}

/**
 * The demo's access in the banner (docs/decisions.md, D-293): first the block with the key and
 * alice's development token, which works in any client at once and keeps working across restarts for 30
 * days; then the key-only block, with which the client signs its user in through OAuth and refreshes
 * the token itself.
 */
function accessLines(access: DemoAccess, issuer: unknown, dataDir: string): string[] {
  const lines = ['', `  Demo subscription key (application demo-agent): ${access.subscriptionKey}`];
  if (access.sampleToken === null || access.sampleTokenExpiresAt === null) {
    lines.push(
      '  No user token: the development identity provider is off, so user-scoped tools answer 401.',
      '',
      'Paste this into your MCP client configuration:',
      JSON.stringify(mcpServersBlock(access), null, 2),
      '',
    );
    return lines;
  }
  lines.push(
    `  Demo user token for "${access.sampleUser}": valid until ${readableTime(access.sampleTokenExpiresAt)}`,
    `    (kept in ${join(dataDir, 'demo-secrets.json')}; every start prints the same one until its last week)`,
    '',
    `Paste this into your MCP client configuration: every tool works at once, as ${access.sampleUser},`,
    'across restarts, until the date above:',
    JSON.stringify(mcpServersBlock(access), null, 2),
    '',
  );
  if (typeof issuer === 'string')
    lines.push(
      'Or paste this key-only block: your client signs you in (OAuth, any user) the first time a tool',
      `needs a user, at ${issuer}, and renews its token itself (README, "Sign in from Claude Desktop or VS Code"):`,
      JSON.stringify(mcpServersBlock({ ...access, sampleToken: null }), null, 2),
      '',
    );
  return lines;
}

function printSummary(
  context: CliContext,
  config: FrozenConfig,
  urls: Record<string, string>,
  json: boolean,
  access: DemoAccess | undefined,
  plan: DemoPlan | undefined,
  admin: AdminTokenNotice | undefined,
): void {
  const summary: Record<string, unknown> = {};
  if (urls.admin) {
    summary.adminUrl = urls.admin;
    summary.adminApi = `${urls.admin}/admin/api/v1`;
    summary.portalUrl = `${urls.admin}/portal/`;
  }
  if (admin?.kind === 'demo') summary.adminToken = admin.token;
  if (urls.gateway) {
    summary.gatewayUrl = urls.gateway;
    summary.mcpUrl = mcpUrl(config);
  }
  if (urls.payments) {
    summary.paymentsUrl = urls.payments;
    summary.paymentOrderApi = `${urls.payments}/payments/payment-order/v1`;
  }
  if (plan !== undefined && !plan.wire) summary.demoWiring = `off: ${plan.reason}`;
  if (access) {
    summary.subscriptionKey = access.subscriptionKey;
    summary.sampleUser = access.sampleUser;
    summary.sampleToken = access.sampleToken;
    summary.sampleTokenExpiresAt = access.sampleTokenExpiresAt;
    summary.clientConfig = mcpServersBlock(access);
    // The development authorization server MCP clients sign in with (it exists whenever a token could be minted).
    if (access.sampleToken !== null && urls.gateway) {
      summary.authorizationServer = devIdpIssuer(config);
      summary.signInClientConfig = mcpServersBlock({ ...access, sampleToken: null });
    }
  }
  if (json) {
    context.stderr.write(`${JSON.stringify(summary)}\n`);
    return;
  }
  const lines = ['', 'toolgate is running.'];
  if (summary.mcpUrl) lines.push(`  MCP endpoint:       ${summary.mcpUrl}`);
  if (summary.gatewayUrl) lines.push(`  Gateway health:     ${summary.gatewayUrl}/healthz`);
  if (summary.paymentOrderApi) lines.push(`  Payment Order API:  ${summary.paymentOrderApi}`);
  if (summary.paymentsUrl) lines.push(`  Payments health:    ${summary.paymentsUrl}/healthz`);
  if (summary.adminApi) lines.push(`  Admin API:          ${summary.adminApi}`);
  if (summary.portalUrl) lines.push(`  Admin portal:       ${summary.portalUrl}`);
  if (admin !== undefined) lines.push(`  Admin token:        ${adminTokenLine(admin)}`);
  if (plan !== undefined && !plan.wire) lines.push(`  Demo wiring off:    ${plan.reason}`);
  if (access) lines.push(...accessLines(access, summary.authorizationServer, config.dataDir));
  lines.push('Press Ctrl+C to stop.', '');
  context.stderr.write(lines.join('\n'));
}

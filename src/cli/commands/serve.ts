// `toolgate start|gateway|payments`: run the services until SIGTERM/SIGINT, then shut down gracefully.
import { loadConfig } from '../../config/load.js';
import type { FrozenConfig } from '../../config/schema.js';
import { createLogger, type Logger } from '../../shared/log/logger.js';
import { shutdownOnSignal } from '../../shared/lifecycle.js';
import type { Service } from '../../shared/service.js';
import { openGatewayService } from '../../gateway/service.js';
import { openPaymentsService } from '../../payments/service.js';
import { COMMON_OPTIONS, parseCommandArgs } from '../args.js';
import { configuredSecrets } from '../secrets.js';
import {
  demoAccess,
  isDemoConfiguration,
  mcpServersBlock,
  withDemoWiring,
  type DemoAccess,
} from '../demo.js';
import type { CliContext, Command } from '../context.js';

type Part = 'gateway' | 'payments';

interface ServeSpec {
  readonly name: string;
  readonly summary: string;
  readonly parts: readonly Part[];
}

const OPENERS: Record<Part, (config: FrozenConfig, logger: Logger) => Promise<Service>> = {
  gateway: openGatewayService,
  payments: openPaymentsService,
};

export function serveCommand(spec: ServeSpec): Command {
  return {
    name: spec.name,
    summary: spec.summary,
    usage: `Usage: toolgate ${spec.name} [--config FILE] [--json]

${spec.summary}

Options:
  -c, --config FILE  configuration file (YAML or JSON); default: $TOOLGATE_CONFIG, else built-in defaults
      --json         print the startup summary as one JSON object instead of text
  -h, --help         show this help

Environment overrides: DATABASE_URL, REDIS_URL, TOOLGATE_GATEWAY_HOST, TOOLGATE_GATEWAY_PORT,
TOOLGATE_PAYMENTS_HOST, TOOLGATE_PAYMENTS_PORT, TOOLGATE_LOG_LEVEL, TOOLGATE_DATA_DIR (docs/configuration.md).
Stops gracefully on SIGTERM or SIGINT.
`,
    async run(argv, context) {
      const { values } = parseCommandArgs(argv, COMMON_OPTIONS);
      if (values.help) {
        context.stdout.write(this.usage);
        return 0;
      }
      const load = { configPath: values.config, env: context.env };
      let config = loadConfig(load);
      const demo = spec.parts.length === 2 && isDemoConfiguration(config);
      if (demo) config = await withDemoWiring(config, load);
      const { logger, scrubber } = createLogger({
        level: config.logging.level,
        secrets: configuredSecrets(config),
      });
      const services: Service[] = [];
      try {
        for (const part of spec.parts) services.push(await OPENERS[part](config, logger));
        const urls: Record<string, string> = {};
        for (const service of services) urls[service.name] = await service.listen();
        const access = demo ? await demoAccess(config) : undefined;
        if (access) scrubber.add(access.subscriptionKey);
        printSummary(context, urls, values.json === true, access);
      } catch (error) {
        await Promise.allSettled(services.map((s) => s.close(0)));
        logger.flush();
        throw error;
      }
      await shutdownOnSignal(services, {
        graceMs: config.shutdown.graceMs,
        logger,
        signals: context.signals,
      });
      logger.flush();
      return 0;
    },
  };
}

function printSummary(
  context: CliContext,
  urls: Record<string, string>,
  json: boolean,
  access?: DemoAccess,
): void {
  const summary: Record<string, unknown> = {};
  if (urls.gateway) {
    summary.gatewayUrl = urls.gateway;
    summary.mcpUrl = `${urls.gateway}/mcp`;
  }
  if (urls.payments) {
    summary.paymentsUrl = urls.payments;
    summary.paymentOrderApi = `${urls.payments}/payments/payment-order/v1`;
  }
  if (access) {
    summary.subscriptionKey = access.subscriptionKey;
    summary.sampleUser = access.sampleUser;
    summary.sampleToken = access.sampleToken;
    summary.clientConfig = mcpServersBlock(access);
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
  if (access) {
    lines.push(
      '',
      `  Demo subscription key (application demo-agent): ${access.subscriptionKey}`,
      `  Sample user token for "${access.sampleUser}" (1 hour; more with: npx toolgate token --sub NAME):`,
      `    ${access.sampleToken ?? '(no development identity provider)'}`,
      '',
      'Paste this into your MCP client configuration:',
      JSON.stringify(mcpServersBlock(access), null, 2),
      '',
    );
  }
  lines.push('Press Ctrl+C to stop.', '');
  context.stderr.write(lines.join('\n'));
}

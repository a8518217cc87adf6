// Quota refusals of tools/call messages, counted on their way out of the gatekeeper: the one place where a
// refusal is known together with the caller's subscription and the tool. Only names of catalogue tools
// are counted (a client may send any name), so the usage table stays bounded by the catalogue.
import type { Gatekeeper } from '../admission/gatekeeper.js';
import { GatewayError } from '../errors.js';
import type { UsageEvents } from './recorder.js';

export function meteredGatekeeper(
  inner: Gatekeeper,
  usage: Pick<UsageEvents, 'quotaRefused'>,
  isTool: (name: string) => boolean,
): Gatekeeper {
  return {
    identify: (request) => inner.identify(request),
    authorize: (caller, tool) => inner.authorize(caller, tool),
    admit: async (caller, tool) => {
      try {
        return await inner.admit(caller, tool);
      } catch (error) {
        if (
          tool !== undefined &&
          error instanceof GatewayError &&
          error.code === 'RATE_LIMITED' &&
          isTool(tool)
        )
          usage.quotaRefused(caller.subscription.id, tool);
        throw error;
      }
    },
  };
}

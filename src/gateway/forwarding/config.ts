// The per-backend identity forwarding settings are configuration (src/config/gateway-forwarding.ts).
export {
  IdentityForwardingSchema,
  type IdentityForwardingConfig,
} from '../../config/gateway-forwarding.js';

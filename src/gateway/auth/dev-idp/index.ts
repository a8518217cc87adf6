export { createDevIdp, DEV_IDP_KEY_FILE, type DevIdp, type MintTokenInput } from './idp.js';
export { devIdpRoutes, type DevIdpRoutesOptions } from './routes.js';

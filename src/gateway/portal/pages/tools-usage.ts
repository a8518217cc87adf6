// The tool catalogue pages for admins (admin-tools.ts: a list and a page per tool) and the usage view with
// its charts for developers (their own) and admins (usage-page.ts), registered together.
import type { FastifyInstance } from 'fastify';
import type { AdminServices } from '../../admin/services.js';
import type { PortalContext } from '../plugin.js';
import { registerAdminToolPages } from './admin-tools.js';
import { registerUsagePage } from './usage-page.js';

export type ToolsUsageServices = Pick<AdminServices, 'tools' | 'usage' | 'applications'>;

export function registerToolsUsagePages(services: ToolsUsageServices) {
  return (app: FastifyInstance, portal: PortalContext): void => {
    registerAdminToolPages(services)(app, portal);
    registerUsagePage(services)(app, portal);
  };
}

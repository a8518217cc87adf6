// The tool catalogue: GET /tools, GET /tools/{name}, PATCH /tools/{name} (admin) — applied on every
// gateway replica without a restart (ToolSettingsService).
import type { FastifyPluginAsync } from 'fastify';
import { actorOf, type AdminRouteModule } from '../http/module.js';
import { operation, pathParameter } from '../http/openapi.js';
import { ToolPatchSchema, type ToolSettingsService } from '../tool-settings.js';
import { AdminToolSchema, ToolListSchema } from './live-schemas.js';

const TAGS = ['tools'];

export function toolRoutes(deps: { readonly tools: ToolSettingsService }): AdminRouteModule {
  const { tools } = deps;
  const plugin: FastifyPluginAsync = async (app) => {
    app.get('/tools', async (request) => {
      actorOf(request);
      return { tools: await tools.list() };
    });
    app.get<{ Params: { name: string } }>('/tools/:name', async (request) => {
      actorOf(request);
      return tools.get(request.params.name);
    });
    app.patch<{ Params: { name: string } }>('/tools/:name', async (request) =>
      tools.update(actorOf(request), request.params.name, request.body ?? {}),
    );
  };
  return {
    name: 'tools',
    plugin,
    openApiPaths: {
      '/tools': {
        get: operation({
          summary: 'Every tool: backend, approval state, security class, annotations, overrides',
          tags: TAGS,
          response: ToolListSchema,
        }),
      },
      '/tools/{name}': {
        get: operation({
          summary: 'One tool (by its current or configured name)',
          tags: TAGS,
          parameters: [pathParameter('name')],
          response: AdminToolSchema,
          errors: [404],
        }),
        patch: operation({
          summary:
            'Change approval, security class or overrides (admin); every replica applies it without a restart. null resets a field.',
          tags: TAGS,
          parameters: [pathParameter('name')],
          body: ToolPatchSchema,
          response: AdminToolSchema,
          errors: [400, 403, 404, 422],
        }),
      },
    },
  };
}

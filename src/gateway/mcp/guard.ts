// The security-class rule: a user-scoped tool called without an authenticated user is refused with
// HTTP 401 before any backend call (spec: Authentication, rule 6).
import { GatewayError } from '../errors.js';
import type { ToolCallGuard } from './request-context.js';

export const securityClassGuard: ToolCallGuard = async (context, tool) => {
  if (tool.securityClass === 'user-scoped' && context.principal.kind !== 'user') {
    throw new GatewayError(
      'UNAUTHENTICATED',
      `Tool ${tool.name} acts on behalf of a user: send a valid user token (Authorization: Bearer <JWT>).`,
      undefined,
      {
        'WWW-Authenticate': 'Bearer error="invalid_token", error_description="user token required"',
      },
    );
  }
};

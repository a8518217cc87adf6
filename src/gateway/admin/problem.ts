// Admin errors as RFC 9457 problem documents: `type`, `title`, `status`, `detail`, `code` and, for
// validation failures, `errors: [{ field, message }]`.
import type { FastifyReply } from 'fastify';
import { PROBLEM_CONTENT_TYPE, problemType } from '../../shared/http/problem.js';
import { reasonPhrase } from '../../shared/http/status.js';
import { AdminError } from './errors.js';

export function sendAdminError(reply: FastifyReply, error: AdminError): FastifyReply {
  // `errors` carries { field, message } (the admin contract), not the REST side's { pointer, code }.
  return reply
    .code(error.status)
    .type(PROBLEM_CONTENT_TYPE)
    .send({
      ...error.extensions,
      type: problemType(error.code),
      title: reasonPhrase(error.status),
      status: error.status,
      detail: error.message,
      code: error.code,
      ...(error.errors.length > 0 ? { errors: error.errors } : {}),
    });
}

/** For a route plugin's error handler: admin errors rendered, anything else left to the app's handler. */
export function adminErrorHandler(error: unknown, reply: FastifyReply): FastifyReply {
  if (error instanceof AdminError) return sendAdminError(reply, error);
  throw error;
}

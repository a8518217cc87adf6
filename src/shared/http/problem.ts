// RFC 9457 problem details, shared by the REST side of both services: the one renderer. Every problem
// answer of the package (route errors, validation failures, refusals before any route, the admin API's
// errors) is built by `problem()` — type from the code, title from the status — and sent by `sendProblem`.
import type { FastifyReply } from 'fastify';
import { reasonPhrase } from './status.js';

export interface ProblemFieldError {
  /** JSON pointer (RFC 6901) to the offending field, "" for the whole body, or "/header/Name". */
  readonly pointer: string;
  readonly code: string;
  /** The ISO 20022 status reason a payment rule gives for the problem (payment service). */
  readonly reason?: string;
  readonly message: string;
  /** The same place as a dotted path (`owner.email`), where a service names fields so (admin API). */
  readonly field?: string;
}

export interface Problem {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail?: string;
  readonly instance?: string;
  readonly code?: string;
  readonly errors?: readonly ProblemFieldError[];
  readonly [extension: string]: unknown;
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** Problem type URIs are relative references resolved against the docs (docs/errors.md#<code>). */
export function problemType(code: string): string {
  return `https://toolgate.dev/errors#${code.toLowerCase()}`;
}

/**
 * The problem document for a status and a documented code: `errors` only when there are field problems
 * (each rendered as `{ field?, pointer, code, reason?, message }`).
 */
export function problem(
  status: number,
  code: string,
  detail: string,
  errors: readonly ProblemFieldError[] = [],
): Problem {
  return {
    type: problemType(code),
    title: reasonPhrase(status),
    status,
    code,
    detail,
    ...(errors.length === 0
      ? {}
      : {
          errors: errors.map(({ field, pointer, code: fieldCode, reason, message }) => ({
            ...(field === undefined ? {} : { field }),
            pointer,
            code: fieldCode,
            ...(reason === undefined ? {} : { reason }),
            message,
          })),
        }),
  };
}

export function sendProblem(reply: FastifyReply, problem: Problem): FastifyReply {
  return reply.code(problem.status).type(PROBLEM_CONTENT_TYPE).send(problem);
}

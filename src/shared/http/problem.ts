// RFC 9457 problem details, shared by the REST side of both services.
import type { FastifyReply } from 'fastify';

export interface ProblemFieldError {
  /** JSON pointer (RFC 6901) to the offending field, "" for the whole body, or "/header/Name". */
  readonly pointer: string;
  readonly code: string;
  readonly message: string;
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

export function sendProblem(reply: FastifyReply, problem: Problem): FastifyReply {
  return reply.code(problem.status).type(PROBLEM_CONTENT_TYPE).send(problem);
}

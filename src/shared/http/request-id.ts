import { randomUUID } from 'node:crypto';

/** Request ids we accept from clients: 1-128 visible characters from a conservative set. */
const WELL_FORMED = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** Takes a well-formed incoming X-Request-Id, otherwise generates a UUID. */
export function requestIdFrom(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && WELL_FORMED.test(value) ? value : randomUUID();
}

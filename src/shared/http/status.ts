// The one reason-phrase table: Node's own (RFC 9110 names), for problem titles and messages.
import { STATUS_CODES } from 'node:http';

/** The reason phrase of an HTTP status ("Not Found"); `unnamed` for a status Node does not name. */
export function reasonPhrase(status: number, unnamed = 'Error'): string {
  return STATUS_CODES[status] ?? unnamed;
}

// The one reason-phrase table, for problem titles and messages: RFC 9110's names — Node's own table, with
// the two RFC 9110 renamed that Node still spells the old way (413, 422).
import { STATUS_CODES } from 'node:http';

const RFC_9110: Readonly<Record<number, string>> = {
  413: 'Content Too Large',
  422: 'Unprocessable Content',
};

/** The reason phrase of an HTTP status ("Not Found"); `unnamed` for a status Node does not name. */
export function reasonPhrase(status: number, unnamed = 'Error'): string {
  return RFC_9110[status] ?? STATUS_CODES[status] ?? unnamed;
}

// Client IP resolution (pure). The socket peer is the client unless it is a configured trusted
// proxy; only then is the forwarding header read, right to left, skipping trusted hops. The first
// untrusted hop is the client: everything left of it was written by the client and can be forged.
import { isIP } from 'node:net';
import { normalizeIp, v6Groups, type TrustedProxies } from '../../shared/ip-address.js';

// Pure and needed by configuration too: src/shared/ip-address.ts.
export { normalizeIp, TrustedProxies } from '../../shared/ip-address.js';

export type ForwardingHeader = 'x-forwarded-for' | 'forwarded';
export type HeaderBag = Readonly<Record<string, string | readonly string[] | undefined>>;

function headerText(headers: HeaderBag, name: string): string {
  const v = headers[name];
  if (v === undefined) return '';
  return typeof v === 'string' ? v : v.join(',');
}

/** Splits on commas (or `sep`) outside double quotes. */
function splitOutsideQuotes(s: string, sep: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (const ch of s) {
    if (ch === '"') quoted = !quoted;
    if (ch === sep && !quoted) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  parts.push(current);
  return parts;
}

/** The node of an RFC 7239 `for=` value without quotes, brackets or port. */
function forwardedNode(value: string): string {
  let v = value.trim();
  if (v.startsWith('"') && v.endsWith('"') && v.length >= 2) v = v.slice(1, -1);
  if (v.startsWith('[')) return v.slice(1, v.indexOf(']') < 0 ? undefined : v.indexOf(']'));
  const colon = v.indexOf(':');
  if (colon >= 0 && v.indexOf(':', colon + 1) < 0) return v.slice(0, colon); // a.b.c.d:port
  return v;
}

/** The hops listed in the forwarding header, left (client side) to right (nearest proxy). */
export function forwardedHops(headers: HeaderBag, header: ForwardingHeader): string[] {
  if (header === 'x-forwarded-for') {
    const text = headerText(headers, 'x-forwarded-for');
    return text === '' ? [] : text.split(',').map((h) => h.trim());
  }
  const text = headerText(headers, 'forwarded');
  if (text === '') return [];
  return splitOutsideQuotes(text, ',').map((element) => {
    for (const pair of splitOutsideQuotes(element, ';')) {
      const eq = pair.indexOf('=');
      if (eq > 0 && pair.slice(0, eq).trim().toLowerCase() === 'for') {
        return forwardedNode(pair.slice(eq + 1));
      }
    }
    return '';
  });
}

/**
 * The client's IP address for a request. A hop that is not an IP address (`unknown`, an obfuscated
 * identifier, garbage) ends the walk: the nearest known address — the proxy that reported it — is used.
 */
export function resolveClientIp(
  socketAddress: string,
  headers: HeaderBag,
  trusted: TrustedProxies,
  header: ForwardingHeader = 'x-forwarded-for',
): string {
  const peer = normalizeIp(socketAddress) ?? socketAddress;
  if (!trusted.has(peer)) return peer;
  let current = peer;
  const hops = forwardedHops(headers, header);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalizeIp(hops[i] ?? '');
    if (!hop) return current;
    if (!trusted.has(hop)) return hop;
    current = hop;
  }
  return current;
}

/**
 * The counter identity of an anonymous client: the IPv4 address, or the IPv6 prefix of
 * `v6PrefixLength` bits (a single subscriber usually controls a whole /64).
 */
export function anonymousIpKey(ip: string, v6PrefixLength = 64): string {
  if (isIP(ip) !== 6) return ip;
  const g = v6Groups(ip);
  const masked = g.map((x, i) => {
    const bits = Math.min(16, Math.max(0, v6PrefixLength - i * 16));
    return bits === 16 ? x : bits === 0 ? 0 : x & ((0xffff << (16 - bits)) & 0xffff);
  });
  return `${masked.map((x) => x.toString(16)).join(':')}/${v6PrefixLength}`;
}

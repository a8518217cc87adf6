// Client IP resolution (pure). The socket peer is the client unless it is a configured trusted
// proxy; only then is the forwarding header read, right to left, skipping trusted hops. The first
// untrusted hop is the client: everything left of it was written by the client and can be forged.
import { BlockList, isIP, isIPv4 } from 'node:net';

export type ForwardingHeader = 'x-forwarded-for' | 'forwarded';
export type HeaderBag = Readonly<Record<string, string | readonly string[] | undefined>>;

function v4Groups(text: string): number[] {
  const b = text.split('.').map(Number);
  return [((b[0] ?? 0) << 8) | (b[1] ?? 0), ((b[2] ?? 0) << 8) | (b[3] ?? 0)];
}

function v6Groups(text: string): number[] {
  const parse = (s: string): number[] =>
    s === ''
      ? []
      : s.split(':').flatMap((p) => (p.includes('.') ? v4Groups(p) : [parseInt(p, 16)]));
  const cut = text.indexOf('::');
  if (cut < 0) return parse(text);
  const head = parse(text.slice(0, cut));
  const tail = parse(text.slice(cut + 2));
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}

function groupsToV4(g: readonly number[]): string {
  const hi = g[6] ?? 0;
  const lo = g[7] ?? 0;
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/**
 * Canonical form of an IP address, or null when `text` is not one: IPv4-mapped IPv6 becomes the
 * IPv4 address (both denote the same client), IPv6 is lower-cased and compressed, zone ids dropped.
 */
export function normalizeIp(text: string): string | null {
  let s = text.trim();
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  const version = isIP(s);
  if (version === 4) return s;
  if (version !== 6) return null;
  const g = v6Groups(s.toLowerCase());
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return groupsToV4(g);
  return new URL(`http://[${s}]/`).hostname.slice(1, -1);
}

/** A set of trusted proxies given as IPs and CIDRs (IPv4, IPv6 and IPv4-mapped IPv6). */
export class TrustedProxies {
  readonly #list = new BlockList();
  readonly size: number;

  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const [addr = '', prefixText] = entry.trim().split('/');
      const ip = normalizeIp(addr);
      if (!ip) throw new Error(`trusted proxy "${entry}" is not an IP address or CIDR`);
      const type = isIPv4(ip) ? 'ipv4' : 'ipv6';
      if (prefixText === undefined) {
        this.#list.addAddress(ip, type);
        continue;
      }
      let prefix = Number(prefixText);
      if (type === 'ipv4' && !isIPv4(addr.trim())) prefix -= 96; // written as ::ffff:a.b.c.d/len
      const max = type === 'ipv4' ? 32 : 128;
      if (!Number.isInteger(prefix) || prefix < 0 || prefix > max || prefixText.trim() === '') {
        throw new Error(`trusted proxy "${entry}" has an invalid prefix length`);
      }
      this.#list.addSubnet(ip, prefix, type);
    }
    this.size = entries.length;
  }

  /** `ip` must be normalized (see normalizeIp). */
  has(ip: string): boolean {
    return this.size > 0 && this.#list.check(ip, isIPv4(ip) ? 'ipv4' : 'ipv6');
  }
}

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

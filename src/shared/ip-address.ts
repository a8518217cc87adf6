// IP addresses and trusted-proxy sets (pure): canonical forms, and membership of addresses in a list of
// IPs and CIDR ranges. Configuration checks gateway.rateLimit.trustedProxies with TrustedProxies at load;
// the rate limiter resolves client addresses with both (src/gateway/ratelimit/client-ip.ts).
import { BlockList, isIP, isIPv4 } from 'node:net';

function v4Groups(text: string): number[] {
  const b = text.split('.').map(Number);
  return [((b[0] ?? 0) << 8) | (b[1] ?? 0), ((b[2] ?? 0) << 8) | (b[3] ?? 0)];
}

/** The eight 16-bit groups of an IPv6 address (an embedded IPv4 tail as two groups). */
export function v6Groups(text: string): number[] {
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

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  TrustedProxies,
  forwardedHops,
  normalizeIp,
  resolveClientIp,
} from '../../../src/gateway/ratelimit/client-ip.js';

const trusted = new TrustedProxies([
  '10.0.0.0/8',
  '192.168.1.1',
  'fd00::/8',
  '::ffff:172.16.0.0/108',
]);
const none = new TrustedProxies([]);

describe('client IP', () => {
  it('normalizes IPv4-mapped IPv6, case and zones', () => {
    assert.equal(normalizeIp('::ffff:203.0.113.9'), '203.0.113.9');
    assert.equal(normalizeIp('::FFFF:cb00:7109'), '203.0.113.9');
    assert.equal(normalizeIp('2001:DB8:0:0::1'), '2001:db8::1');
    assert.equal(normalizeIp('fe80::1%eth0'), 'fe80::1');
    assert.equal(normalizeIp('unknown'), null);
    assert.equal(normalizeIp('1.2.3.4:80'), null);
  });

  it('uses the socket address when no proxy is trusted, whatever the headers say', () => {
    const headers = { 'x-forwarded-for': '1.1.1.1', forwarded: 'for=2.2.2.2' };
    assert.equal(resolveClientIp('203.0.113.9', headers, none), '203.0.113.9');
    assert.equal(resolveClientIp('::ffff:203.0.113.9', headers, none), '203.0.113.9');
  });

  it('ignores forwarding headers from an untrusted peer', () => {
    assert.equal(
      resolveClientIp('203.0.113.9', { 'x-forwarded-for': '10.0.0.1' }, trusted),
      '203.0.113.9',
    );
  });

  it('takes the rightmost untrusted X-Forwarded-For hop behind trusted proxies', () => {
    const headers = { 'x-forwarded-for': '6.6.6.6, 198.51.100.4, 10.1.1.1' };
    assert.equal(resolveClientIp('10.0.0.2', headers, trusted), '198.51.100.4');
    assert.equal(resolveClientIp('::ffff:10.0.0.2', headers, trusted), '198.51.100.4');
  });

  it('a client cannot spoof by prepending addresses or by sending the other header', () => {
    // The client sent "X-Forwarded-For: 1.2.3.4"; the trusted proxy appended the real peer.
    const spoofed = { 'x-forwarded-for': '1.2.3.4, 198.51.100.4', forwarded: 'for=9.9.9.9' };
    assert.equal(resolveClientIp('192.168.1.1', spoofed, trusted), '198.51.100.4');
    // A client claiming a trusted address is still only believed from the right.
    const claimTrusted = { 'x-forwarded-for': '10.9.9.9, 198.51.100.4' };
    assert.equal(resolveClientIp('192.168.1.1', claimTrusted, trusted), '198.51.100.4');
    // With Forwarded configured, a forged X-Forwarded-For is ignored.
    assert.equal(
      resolveClientIp(
        '192.168.1.1',
        { 'x-forwarded-for': '7.7.7.7', forwarded: 'for=198.51.100.4' },
        trusted,
        'forwarded',
      ),
      '198.51.100.4',
    );
  });

  it('all hops trusted: the leftmost hop', () => {
    assert.equal(
      resolveClientIp('10.0.0.2', { 'x-forwarded-for': '10.3.3.3, 10.1.1.1' }, trusted),
      '10.3.3.3',
    );
    assert.equal(resolveClientIp('10.0.0.2', {}, trusted), '10.0.0.2');
  });

  it('a hop that is not an IP stops the walk at the nearest known address', () => {
    assert.equal(
      resolveClientIp(
        '10.0.0.2',
        { 'x-forwarded-for': '198.51.100.4, garbage, 10.1.1.1' },
        trusted,
      ),
      '10.1.1.1',
    );
    assert.equal(
      resolveClientIp('10.0.0.2', { forwarded: 'for=unknown' }, trusted, 'forwarded'),
      '10.0.0.2',
    );
  });

  it('parses RFC 7239 Forwarded: quotes, brackets, ports, several fields and header lines', () => {
    const headers = {
      forwarded: [
        'for=198.51.100.17;proto=https, for="[2001:db8:cafe::17]:4711"',
        'for="192.0.2.60:8080";by=10.0.0.1, For=10.1.1.1',
      ],
    };
    assert.deepEqual(forwardedHops(headers, 'forwarded'), [
      '198.51.100.17',
      '2001:db8:cafe::17',
      '192.0.2.60',
      '10.1.1.1',
    ]);
    assert.equal(resolveClientIp('fd00::5', headers, trusted, 'forwarded'), '192.0.2.60');
  });

  it('matches IPv6 CIDRs and IPv4-mapped CIDRs', () => {
    assert.equal(trusted.has('fd12:3456::1'), true);
    assert.equal(trusted.has('fe80::1'), false);
    assert.equal(trusted.has('172.16.5.5'), true);
    assert.equal(trusted.has('172.32.0.1'), false);
  });

  it('rejects invalid trusted-proxy entries', () => {
    assert.throws(() => new TrustedProxies(['10.0.0.0/33']), /prefix/);
    assert.throws(() => new TrustedProxies(['example.com']), /not an IP/);
    assert.throws(() => new TrustedProxies(['10.0.0.0/']), /prefix/);
  });
});

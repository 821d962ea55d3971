import { describe, expect, it } from 'vitest';
import { clientIp, UNKNOWN_CLIENT } from '../../src/demo/client-ip.js';

describe('demo client IP', () => {
  it('uses the socket address and ignores X-Forwarded-For unless the proxy is trusted', () => {
    expect(clientIp({ remoteAddress: '198.51.100.7', forwardedFor: '203.0.113.9', trustProxy: false })).toBe('198.51.100.7');
  });

  it('takes the hop the trusted proxy appended, not what the client wrote before it', () => {
    expect(clientIp({ remoteAddress: '10.0.0.2', forwardedFor: '203.0.113.9', trustProxy: true })).toBe('203.0.113.9');
    // A client sending its own X-Forwarded-For: 198.51.100.1 still counts as the address the proxy saw.
    expect(clientIp({ remoteAddress: '10.0.0.2', forwardedFor: '198.51.100.1, 203.0.113.9', trustProxy: true })).toBe('203.0.113.9');
    expect(clientIp({ remoteAddress: '10.0.0.2', forwardedFor: '198.51.100.1, 203.0.113.9 , ', trustProxy: true })).toBe('203.0.113.9');
    expect(clientIp({ remoteAddress: '10.0.0.2', forwardedFor: undefined, trustProxy: true })).toBe('10.0.0.2');
    expect(clientIp({ remoteAddress: '10.0.0.2', forwardedFor: ' , ', trustProxy: true })).toBe('10.0.0.2');
  });

  it('treats an IPv4-mapped IPv6 peer as the same IPv4 visitor', () => {
    expect(clientIp({ remoteAddress: '::ffff:198.51.100.7', forwardedFor: undefined, trustProxy: false })).toBe('198.51.100.7');
  });

  it('counts an IPv6 visitor by its /64, so rotating through one subscriber prefix gains nothing', () => {
    const ip = (remoteAddress: string) => clientIp({ remoteAddress, forwardedFor: undefined, trustProxy: false });
    expect(ip('2001:DB8::1')).toBe('2001:db8:0:0::/64');
    expect(ip('2001:db8:0:0:aaaa:bbbb:cccc:dddd')).toBe(ip('2001:0db8::ffff'));
    expect(ip('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(ip('2001:db8:1:3::1')).not.toBe(ip('2001:db8:1:2::1'));
    expect(ip('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(ip('::1')).toBe('0:0:0:0::/64');
    expect(clientIp({ remoteAddress: '10.0.0.2', forwardedFor: '2001:db8:5:6::9', trustProxy: true })).toBe('2001:db8:5:6::/64');
  });

  it('puts requests without any address in one shared bucket', () => {
    expect(clientIp({ remoteAddress: undefined, forwardedFor: '203.0.113.9', trustProxy: false })).toBe(UNKNOWN_CLIENT);
  });
});

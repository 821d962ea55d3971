import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Signer } from '../../src/lib/signer.js';

/** What the signer computed with node's Hmac before it wrote HMAC out as two hashes: ids issued then must still open. */
function hmacSigned(masterKey: Buffer, purpose: string, data: Buffer, associated: string): string {
  const key = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), `addressd ${purpose}`, 32));
  const mac = createHmac('sha256', key).update(associated).update('\0').update(data).digest().subarray(0, 16);
  return `${data.toString('base64url')}.${mac.toString('base64url')}`;
}

describe('Signer', () => {
  it('signs with HMAC-SHA256 over the associated value, a NUL and the data, byte for byte', () => {
    for (let i = 0; i < 200; i++) {
      const masterKey = randomBytes(32);
      const data = randomBytes(i % 97);
      const associated = `response-id:acc_${randomBytes(1 + (i % 40)).toString('hex')}`;
      const signer = new Signer(masterKey, 'response ids');
      expect(signer.sign(data, associated)).toBe(hmacSigned(masterKey, 'response ids', data, associated));
    }
  });

  it('opens what it and node\'s Hmac signed, and nothing signed for another value, key or purpose', () => {
    const masterKey = randomBytes(32);
    const signer = new Signer(masterKey, 'response ids');
    const data = Buffer.from('["1",1764356000000,"valid",null,null]');
    expect(signer.open(hmacSigned(masterKey, 'response ids', data, 'a'), 'a')).toEqual(data);
    expect(signer.open(signer.sign(data, 'a'), 'a')).toEqual(data);
    expect(signer.open(signer.sign(data, 'a'), 'b')).toBeNull();
    expect(signer.open(hmacSigned(masterKey, 'other purpose', data, 'a'), 'a')).toBeNull();
    expect(new Signer(randomBytes(32), 'response ids').open(signer.sign(data, 'a'), 'a')).toBeNull();
    // A multibyte associated value is hashed as UTF-8, as Hmac's update did.
    expect(signer.sign(data, 'réponse:ü')).toBe(hmacSigned(masterKey, 'response ids', data, 'réponse:ü'));
  });
});

import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generate } from 'selfsigned';
import { ensureDataDir } from '../../lib/data-dir.js';

export interface DemoCertificate {
  key: string;
  cert: string;
}

const DAYS = 30;

/**
 * A self-signed certificate for `host` (and 127.0.0.1), kept in DATA_DIR so a browser that was
 * told once to proceed keeps trusting it across runs; renewed when it is about to expire or was
 * made for another host.
 */
export async function demoCertificate(dataDir: string, host: string): Promise<DemoCertificate> {
  const dir = path.join(dataDir, 'widget-demo');
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  if (existsSync(keyFile) && existsSync(certFile)) {
    const cert = readFileSync(certFile, 'utf8');
    const x509 = new X509Certificate(cert);
    const fresh = new Date(x509.validTo).getTime() > Date.now() + 86_400_000;
    if (fresh && x509.checkHost(host) !== undefined) return { key: readFileSync(keyFile, 'utf8'), cert };
  }
  const now = Date.now();
  const ip = /^\d+\.\d+\.\d+\.\d+$/.test(host);
  const pems = await generate([{ name: 'commonName', value: host }], {
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate: new Date(now - 60_000),
    notAfterDate: new Date(now + DAYS * 86_400_000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'subjectAltName', altNames: [ip ? { type: 7, ip: host } : { type: 2, value: host }, { type: 7, ip: '127.0.0.1' }] },
    ],
  });
  // The first command may be this one (the README's offline path): DATA_DIR is made 0700 like everywhere, and so is its folder of the key.
  ensureDataDir(dataDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(keyFile, pems.private, { mode: 0o600 });
  writeFileSync(certFile, pems.cert);
  return { key: pems.private, cert: pems.cert };
}

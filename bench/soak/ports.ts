import { once } from 'node:events';
import net from 'node:net';

/** A port of 127.0.0.1 nobody listens on right now (the soak's servers keep theirs across restarts). */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

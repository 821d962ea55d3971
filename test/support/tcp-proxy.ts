import { once } from 'node:events';
import net from 'node:net';

/**
 * A TCP proxy in front of a real server (PostgreSQL) that a test can cut and restore, as a
 * network partition, a database restart or a host that stops answering would.
 * - `cut()`: drops every open connection and refuses new ones (ECONNREFUSED).
 * - `blackhole()`: accepts connections and never answers (a host that went silent).
 * - `restore()`: forwards again on the same port.
 */
export interface TcpProxy {
  port: number;
  cut(): Promise<void>;
  blackhole(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: 'forward' | 'blackhole' = 'forward';
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = net.createServer((client) => {
    track(client);
    if (mode === 'blackhole') return;
    const upstream = net.connect(target);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const dropAll = () => {
    for (const socket of sockets) socket.destroy();
  };
  const listen = async (port: number) => {
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
  };
  const stopListening = async () => {
    if (!server.listening) return;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    async cut() {
      mode = 'forward';
      const closed = stopListening();
      dropAll();
      await closed;
    },
    async blackhole() {
      mode = 'blackhole';
      dropAll();
      if (!server.listening) await listen(port);
    },
    async restore() {
      mode = 'forward';
      dropAll();
      if (!server.listening) await listen(port);
    },
    async close() {
      const closed = stopListening();
      dropAll();
      await closed;
    },
  };
}

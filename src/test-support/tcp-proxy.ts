import net from 'node:net';

/** What the proxy does with new connections: relay them, refuse them (a server that is down), or swallow them (a network that drops packets). */
export type ProxyMode = 'relay' | 'refuse' | 'blackhole';

export interface TcpProxy {
  port: number;
  /**
   * Drops every connection and refuses new ones: to the server behind it, the client vanished as if its
   * process had been killed, and the client cannot come back.
   */
  cut(): Promise<void>;
  /** Destroys every open connection now (both sides see a reset); new ones are handled by the current mode. */
  drop(): void;
  /**
   * How new connections are handled from now on. `blackhole` also stops relaying on the open ones, so a
   * request already sent waits for an answer that never comes, as behind a dead link.
   */
  setMode(mode: ProxyMode): void;
  /** Connections currently open through the proxy (client side). */
  openConnections(): number;
}

/** A loopback TCP relay to `target`, so a test can sever, refuse or stall one client's connections to a real server. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const clients = new Set<net.Socket>();
  let mode: ProxyMode = 'relay';
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const server = net.createServer((client) => {
    track(client);
    clients.add(client);
    client.once('close', () => clients.delete(client));
    client.on('error', () => undefined);
    if (mode === 'refuse') {
      client.destroy();
      return;
    }
    // Swallowed: the client's bytes are read and dropped, nothing ever comes back.
    if (mode === 'blackhole') {
      client.resume();
      return;
    }
    const upstream = net.connect(target);
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('proxy has no port');
  const drop = () => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    port: address.port,
    async cut() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      drop();
      await closed;
    },
    drop,
    setMode(next) {
      mode = next;
      if (next !== 'blackhole') return;
      for (const socket of sockets) {
        socket.unpipe();
        socket.removeAllListeners('data');
        socket.resume();
      }
    },
    openConnections: () => clients.size,
  };
}

// A minimal SOCKS5 server on 127.0.0.1 (RFC 1928 CONNECT, RFC 1929 user/password) standing in for a socks5:// egress
// proxy: it records who connected where with which credentials, and pipes the bytes.
import { connect, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface Socks5Server {
  port: number;
  /** One entry per CONNECT: "host:port" and the credentials offered. */
  connects: { target: string; user?: string; password?: string }[];
  /** Bytes read from and written to the service's connections so far (what a paid proxy bills). */
  bytes(): number;
  close(): Promise<void>;
}

/** `localAddress`: the address the server connects to targets from (another loopback address is another exit). */
export async function startSocks5Server(opts: { localAddress?: string } = {}): Promise<Socks5Server> {
  const clients = new Set<Socket>();
  let closedBytes = 0;
  const connects: Socks5Server['connects'] = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    sockets.add(client);
    clients.add(client);
    client.on('close', () => {
      closedBytes += client.bytesRead + client.bytesWritten;
      clients.delete(client);
    });
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    let buffer = Buffer.alloc(0);
    let stage: 'greeting' | 'auth' | 'request' | 'piping' = 'greeting';
    let user: string | undefined;
    let password: string | undefined;
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        if (stage === 'greeting') {
          if (buffer.length < 2 || buffer.length < 2 + buffer[1]!) return;
          const methods = [...buffer.subarray(2, 2 + buffer[1]!)];
          buffer = buffer.subarray(2 + buffer[1]!);
          const method = methods.includes(0x02) ? 0x02 : methods.includes(0x00) ? 0x00 : 0xff;
          client.write(Buffer.from([0x05, method]));
          if (method === 0xff) return void client.end();
          stage = method === 0x02 ? 'auth' : 'request';
        } else if (stage === 'auth') {
          if (buffer.length < 2) return;
          const ulen = buffer[1]!;
          if (buffer.length < 3 + ulen || buffer.length < 3 + ulen + buffer[2 + ulen]!) return;
          const plen = buffer[2 + ulen]!;
          user = buffer.subarray(2, 2 + ulen).toString();
          password = buffer.subarray(3 + ulen, 3 + ulen + plen).toString();
          buffer = buffer.subarray(3 + ulen + plen);
          client.write(Buffer.from([0x01, 0x00]));
          stage = 'request';
        } else if (stage === 'request') {
          if (buffer.length < 5) return;
          const atyp = buffer[3]!;
          const addrLen = atyp === 0x01 ? 4 : atyp === 0x04 ? 16 : 1 + buffer[4]!;
          if (buffer.length < 4 + addrLen + 2) return;
          const addr = buffer.subarray(4, 4 + addrLen);
          const host = atyp === 0x01 ? [...addr].join('.') : atyp === 0x03 ? addr.subarray(1).toString() : '::1';
          const port = buffer.readUInt16BE(4 + addrLen);
          const rest = buffer.subarray(4 + addrLen + 2);
          connects.push({ target: `${host}:${port}`, user, password });
          stage = 'piping';
          client.off('data', onData);
          const upstream = connect({ port, host, localAddress: opts.localAddress }, () => {
            client.write(Buffer.from([0x05, 0x00, 0x00, 0x01, 0, 0, 0, 0, 0, 0]));
            if (rest.length) upstream.write(rest);
            client.pipe(upstream);
            upstream.pipe(client);
          });
          sockets.add(upstream);
          upstream.on('close', () => sockets.delete(upstream));
          upstream.on('error', () => client.destroy());
          return;
        } else return;
      }
    };
    client.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connects,
    bytes: () => [...clients].reduce((n, s) => n + s.bytesRead + s.bytesWritten, closedBytes),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

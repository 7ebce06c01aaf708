import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// s3rver: a real S3-protocol server (SigV4 checked, XML errors) on the filesystem; its only account is S3RVER/S3RVER.
import S3rver from 's3rver';

export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface LoopbackS3 {
  endpoint: string;
  close(): Promise<void>;
}

/** An S3 server on 127.0.0.1 with the given buckets. */
export async function startLoopbackS3(buckets: string[]): Promise<LoopbackS3> {
  const directory = mkdtempSync(join(tmpdir(), 's3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  const { port } = (await server.run()) as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

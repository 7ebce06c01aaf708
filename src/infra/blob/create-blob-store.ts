import type { Sql } from '../../../db/client.ts';
import type { Config } from '../../config.ts';
import type { BlobStore } from '../../domain/ports.ts';
import { createFsBlobStore } from './fs-blob-store.ts';
import { createPgBlobStore } from './pg-blob-store.ts';

/**
 * S3 when S3_BUCKET is set, a directory with BLOB_DIR, else PostgreSQL (the config forbids choosing two). The AWS SDK
 * is loaded only when S3 is chosen: it is the largest import of the service, and every start (CLI included) paid it.
 */
export async function createBlobStore(config: Config, sql: Sql): Promise<BlobStore & { destroy?(): void }> {
  if (config.S3_BUCKET) {
    const { createS3BlobStore } = await import('./s3-blob-store.ts');
    return createS3BlobStore({
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      publicEndpoint: config.S3_PUBLIC_ENDPOINT,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
      credentials:
        config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
          ? { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY }
          : undefined,
      prefix: config.S3_PREFIX,
      timeoutMs: config.S3_TIMEOUT_MS,
    });
  }
  return config.BLOB_DIR ? createFsBlobStore(config.BLOB_DIR) : createPgBlobStore(sql);
}

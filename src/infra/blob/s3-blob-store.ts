import {
  GetObjectCommand,
  HeadBucketCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';

import type { BlobStore } from '../../domain/ports.ts';

export interface S3BlobStoreOptions {
  bucket: string;
  region: string;
  /** An S3-compatible server (MinIO, R2, Ceph...); unset for AWS itself. */
  endpoint?: string;
  /** Origin put in presigned URLs when clients reach the server by another name than we do (compose, a CDN). */
  publicEndpoint?: string;
  forcePathStyle: boolean;
  /** Unset: the AWS SDK's default chain (environment, shared files, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Prepended to every key, so one bucket can hold several deployments. */
  prefix: string;
  timeoutMs: number;
}

/** An S3 failure said in words an operator can act on (the SDK's own messages are often empty for HEAD). */
export class BlobStoreError extends Error {}

/**
 * Blobs as objects in an S3-compatible bucket. Frames get presigned GET URLs, so clients download them from the
 * bucket directly instead of through the API.
 */
export function createS3BlobStore(o: S3BlobStoreOptions): BlobStore & { check(): Promise<void>; destroy(): void } {
  const client = s3Client(o, o.endpoint);
  // Presigning is local computation: a second client only to sign for the public origin.
  const signer = o.publicEndpoint ? s3Client(o, o.publicEndpoint) : client;
  const Key = (key: string) => {
    if (key.length === 0) throw new TypeError('empty blob key');
    return o.prefix + key;
  };

  const explain = (err: unknown, what: string): never => explainFailure(o.bucket, err, what);

  return {
    async put(key, bytes, mimeType) {
      try {
        await client.send(
          new PutObjectCommand({
            Bucket: o.bucket,
            Key: Key(key),
            Body: bytes,
            ContentType: mimeType,
            ContentLength: bytes.length,
          }),
        );
      } catch (err) {
        explain(err, 'put');
      }
    },
    async get(key) {
      try {
        const res = await client.send(new GetObjectCommand({ Bucket: o.bucket, Key: Key(key) }));
        const bytes = Buffer.from(await res.Body!.transformToByteArray());
        return { bytes, mimeType: res.ContentType ?? 'application/octet-stream' };
      } catch (err) {
        if (err instanceof S3ServiceException && (err.name === 'NoSuchKey' || err.name === 'NotFound')) return null;
        return explain(err, 'get');
      }
    },
    presignGet(key, ttlSeconds) {
      // SigV4 presigned URLs live at most 7 days.
      return getSignedUrl(signer, new GetObjectCommand({ Bucket: o.bucket, Key: Key(key) }), {
        expiresIn: Math.min(ttlSeconds, 7 * 24 * 3600),
      });
    },
    /** Bucket exists and the credentials may read it; for boot and /readyz. */
    async check() {
      try {
        await client.send(new HeadBucketCommand({ Bucket: o.bucket }));
      } catch (err) {
        explain(err, 'check');
      }
    },
    destroy() {
      client.destroy();
      if (signer !== client) signer.destroy();
    },
  };
}

function s3Client(o: S3BlobStoreOptions, endpoint: string | undefined): S3Client {
  return new S3Client({
    region: o.region,
    endpoint,
    forcePathStyle: o.forcePathStyle,
    credentials: o.credentials,
    // Our own bound per request; the SDK's default waits forever on a silent server.
    requestHandler: { requestTimeout: o.timeoutMs, connectionTimeout: Math.min(o.timeoutMs, 5000) },
    maxAttempts: 3,
  });
}

function explainFailure(bucket: string, err: unknown, what: string): never {
  if (err instanceof S3ServiceException) {
    const status = err.$metadata.httpStatusCode;
    if (err.name === 'NoSuchBucket' || (what === 'check' && status === 404)) {
      throw new BlobStoreError(`S3 bucket ${JSON.stringify(bucket)} does not exist`, { cause: err });
    }
    if (
      ['InvalidAccessKeyId', 'SignatureDoesNotMatch', 'AccessDenied', 'Forbidden'].includes(err.name) ||
      status === 403
    ) {
      throw new BlobStoreError(`S3 refused the credentials for bucket ${JSON.stringify(bucket)} (${err.name})`, {
        cause: err,
      });
    }
    throw new BlobStoreError(`S3 ${what} failed: ${err.name} (HTTP ${status ?? '?'})`, { cause: err });
  }
  throw new BlobStoreError(`S3 ${what} failed: ${(err as Error).message}`, { cause: err });
}

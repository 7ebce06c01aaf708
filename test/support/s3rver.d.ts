// s3rver ships no types; only what test/support/s3-server.ts uses.
declare module 's3rver' {
  export default class S3rver {
    constructor(options: {
      address?: string;
      port?: number;
      silent?: boolean;
      directory?: string;
      configureBuckets?: { name: string }[];
    });
    run(): Promise<import('node:net').AddressInfo>;
    close(): Promise<void>;
  }
}

// The part of s3rver's API that scripts/local-s3.ts uses (the package ships no types).
declare module 's3rver' {
  export default class S3rver {
    constructor(options: { port?: number; address?: string; silent?: boolean; directory: string });
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}

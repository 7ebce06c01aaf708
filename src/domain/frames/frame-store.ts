export interface StoredFrame {
  width: number;
  height: number;
  mimeType: string;
  bytes: number;
  blobKey: string;
  source: 'stream' | 'storyboard';
}

/** Stored frames' rows (their images are in the BlobStore); implemented in src/infra/postgres/frames.ts. */
export interface FrameStore {
  /** The stored frames among `tMs` at `width`, by time in milliseconds. */
  readMany(videoId: string, width: number, tMs: number[]): Promise<Map<number, StoredFrame>>;
  /** True when this call stored the frame (false: it was already there). */
  storeIfAbsent(videoId: string, tMs: number, requestedWidth: number, f: StoredFrame): Promise<boolean>;
}

// The resources an account has obtained (transcripts, translations, articles, frames it fetched or read), for MCP's
// resources/list. Rows name what is stored elsewhere; reading one goes through the operation that serves it, with
// that operation's ownership checks and price.

export interface LibraryEntry {
  uri: string;
  name: string;
  title: string;
  mimeType: string;
}

interface LibraryRow extends LibraryEntry {
  /** When it was last fetched or read, exactly as stored (microseconds): a page starts after such a position. */
  seenAt: string;
}

/** Where a page starts: after this row in the order (newest first, then uri). */
export interface LibraryPosition {
  seenAt: string;
  uri: string;
}

export interface ResourceLibrary {
  /** Records (or refreshes) entries for an account. */
  note(accountId: string, entries: LibraryEntry[]): Promise<void>;
  /** Up to `limit` rows after `after`, newest first. */
  page(accountId: string, after: LibraryPosition | null, limit: number): Promise<LibraryRow[]>;
}

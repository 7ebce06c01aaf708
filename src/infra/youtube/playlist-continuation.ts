// The continuation token that asks InnerTube for a playlist's first page of videos. YouTube's web client (and
// NewPipe, YoutubePlaylistExtractor since 2025) fetches the header with one browse and the videos with this token:
// protobuf { 80226972: { 2: "VL<id>", 3: "CADCBgIIAA%3D%3D", 35: "<id>" } }, base64url. The recorded fixtures
// (youtube-browse/SOURCES.md) carry exactly this token.
const FIRST_PAGE_PARAMS = 'CADCBgIIAA%3D%3D';

function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}

function field(num: number, bytes: Uint8Array | number[]): number[] {
  return [...varint(num * 8 + 2), ...varint(bytes.length), ...bytes];
}

const utf8 = (s: string) => [...Buffer.from(s, 'utf8')];

export function playlistFirstPageToken(playlistId: string): string {
  const inner = [
    ...field(2, utf8(`VL${playlistId}`)),
    ...field(3, utf8(FIRST_PAGE_PARAMS)),
    ...field(35, utf8(playlistId)),
  ];
  return Buffer.from(field(80226972, inner)).toString('base64url');
}

/** Demuxers a direct media URL may need, and no others (no concat, no image sequences, no local devices). */
const MEDIA_FORMATS = 'hls,mpegts,mov,mp4,m4a,3gp,3g2,mj2,matroska,webm,mp3,wav,ogg,flac,aac,asf,avi,flv';

/**
 * The input options of every ffmpeg/ffprobe run that reads a direct media URL through the media gateway: http and tcp
 * only (never file:, never another protocol a playlist names), the gateway session's own options (its proxy), media
 * demuxers only (a YouTube stream's caller narrows them to its containers), and a read timeout. One list, so no
 * caller can forget a part of it.
 */
export const gatewayInputArgs = (sessionArgs: string[], timeoutMs: number, formats = MEDIA_FORMATS): string[] => [
  '-protocol_whitelist',
  'http,tcp',
  ...sessionArgs,
  '-format_whitelist',
  formats,
  '-rw_timeout',
  String(timeoutMs * 1000),
];

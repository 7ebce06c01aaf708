// Where a web PO token goes in the URLs a web client answered, as yt-dlp puts it (yt_dlp/extractor/youtube/_video.py):
// caption URLs that carry exp=xpe or exp=xpv get pot=<token>&potc=1&c=<client name> and otherwise answer 200 and
// empty; stream (googlevideo) URLs get pot=<token>.

/** Caption URLs YouTube will answer only with a PO token. */
export const needsCaptionToken = (url: string) => /[?&]exp=xp[ev](?:&|#|$)/.test(url);

export function addCaptionToken(url: string, token: string, client: string): string {
  const u = new URL(url);
  u.searchParams.set('pot', token);
  u.searchParams.set('potc', '1');
  u.searchParams.set('c', client);
  return u.toString();
}

export function addStreamToken(url: string, token: string): string {
  const u = new URL(url);
  u.searchParams.set('pot', token);
  return u.toString();
}

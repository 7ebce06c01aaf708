// The transcript operations' `mode`: captions only (native, what fetchTranscript does), speech-to-text only
// (generate), or captions when the video has any and speech-to-text otherwise (auto, the default).
import type { CallerRequest } from '../keys/caller.ts';
import { isServiceError } from '../errors.ts';
import { requestSpeech, type SpeechRequestPorts } from '../speech/request-speech.ts';
import { loadVideoForPayer } from '../video/paid-load.ts';
import { TRANSCRIPT_PRICE } from '../pricing/prices.ts';
import { resolveVideoRef, type ResolveMediaPorts } from '../video/resolve-media.ts';
import { fetchTranscript, storedTranscriptPage, type TranscriptPorts } from './fetch-transcript.ts';
import { parseVideoOrMediaRef } from '../video/video-ref.ts';
import { DEFAULT_TRANSCRIPT_MODE, type GetTranscriptRequest, type TranscriptAnswer } from './schemas.ts';

export type GetTranscriptPorts = TranscriptPorts & SpeechRequestPorts & ResolveMediaPorts;

export async function getTranscript(
  deps: GetTranscriptPorts,
  req: CallerRequest,
  input: GetTranscriptRequest,
): Promise<TranscriptAnswer> {
  const stored = await storedTranscript(deps, req, input);
  if (stored) return stored;
  const mode = input.mode ?? DEFAULT_TRANSCRIPT_MODE;
  // A direct media URL is probed (through the SSRF guard) and stored as a video without captions.
  const videoId = await resolveVideoRef(deps, input, req.caller.accountId);
  const view = { ...input, url: undefined, videoId };
  if (mode === 'native') return fetchTranscript(deps, req, view);
  if (mode === 'generate') return requestSpeech(deps, req, view);
  try {
    return await fetchTranscript(deps, req, view);
  } catch (err) {
    if (!isServiceError(err) || err.code !== 'NO_SUBTITLES') throw err;
    // Captions in other languages: the answer lists them (translate one) rather than guess at the spoken language.
    const video = await loadVideoForPayer(
      deps,
      { accountId: req.caller.accountId, requestId: req.requestId },
      videoId,
      TRANSCRIPT_PRICE,
    );
    if (video.tracks.length > 0) throw err;
    return requestSpeech(deps, req, view, err);
  }
}

/**
 * What getTranscript answers at once and free because it is stored, or null when it has work to do (a media URL to
 * probe, speech-to-text, a transcript to extract, a refusal to explain). Reads only. getTranscript asks it first, and
 * so does the plain read answered before the procedure (its `meta.stored`): one rule for both.
 */
export async function storedTranscript(
  deps: Pick<GetTranscriptPorts, 'videos' | 'hotCache' | 'transcripts'>,
  req: CallerRequest,
  input: GetTranscriptRequest,
): Promise<TranscriptAnswer | null> {
  if (input.mode === 'generate') return null;
  let ref;
  try {
    ref = parseVideoOrMediaRef(input, req.caller.accountId);
  } catch (err) {
    if (isServiceError(err)) return null;
    throw err;
  }
  if (ref.mediaUrl) return null;
  return storedTranscriptPage(deps, req, { ...input, url: undefined, videoId: ref.videoId });
}

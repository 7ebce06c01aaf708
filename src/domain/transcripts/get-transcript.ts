// The transcript operations' `mode`: captions only (native, what fetchTranscript does), speech-to-text only
// (generate), or captions when the video has any and speech-to-text otherwise (auto, the default).
import { isServiceError } from '../errors.ts';
import { requestSpeech, type SpeechRequestPorts } from '../speech/request-speech.ts';
import type { WorkRequest } from '../jobs/llm-jobs.ts';
import { loadVideoForPayer } from '../video/paid-load.ts';
import { TRANSCRIPT_PRICE } from '../pricing/prices.ts';
import { resolveVideoRef, type ResolveMediaPorts } from '../video/resolve-media.ts';
import { fetchTranscript, type TranscriptPorts } from './fetch-transcript.ts';
import { DEFAULT_TRANSCRIPT_MODE, type GetTranscriptRequest, type TranscriptPageAnswer } from './schemas.ts';

export type GetTranscriptPorts = TranscriptPorts & SpeechRequestPorts & ResolveMediaPorts;

export async function getTranscript(
  deps: GetTranscriptPorts,
  req: WorkRequest,
  input: GetTranscriptRequest,
): Promise<TranscriptPageAnswer> {
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
    const video = await loadVideoForPayer(deps, req.caller.accountId, videoId, TRANSCRIPT_PRICE);
    if (video.tracks.length > 0) throw err;
    return requestSpeech(deps, req, view, err);
  }
}

// The transcript operations' `mode`: captions only (native, what fetchTranscript does), speech-to-text only
// (generate), or captions when the video has any and speech-to-text otherwise (auto, the default).
import { isServiceError } from '../errors.ts';
import { requestSpeech, type SpeechRequestPorts } from '../speech/request-speech.ts';
import type { WorkRequest } from '../tasks/llm-tasks.ts';
import { loadVideo } from '../video/load-video.ts';
import { parseVideoRef } from '../video/video-ref.ts';
import { fetchTranscript, type TranscriptPorts } from './fetch-transcript.ts';
import type { GetSubtitlesRequest, TranscriptAnswer } from './schemas.ts';

export type GetTranscriptPorts = TranscriptPorts & SpeechRequestPorts;

export async function getTranscript(deps: GetTranscriptPorts, req: WorkRequest, input: GetSubtitlesRequest): Promise<TranscriptAnswer> {
  const mode = input.mode ?? 'auto';
  if (mode === 'native') return fetchTranscript(deps, req, input);
  const videoId = parseVideoRef(input);
  const view = { ...input, url: undefined, videoId };
  if (mode === 'generate') return requestSpeech(deps, req, view);
  try {
    return await fetchTranscript(deps, req, input);
  } catch (err) {
    if (!isServiceError(err) || err.code !== 'NO_SUBTITLES') throw err;
    // Captions in other languages: the answer lists them (translate one) rather than guess at the spoken language.
    const video = await loadVideo(deps, videoId);
    if (video.tracks.length > 0) throw err;
    return requestSpeech(deps, req, view, err);
  }
}

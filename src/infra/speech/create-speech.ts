// Which speech-to-text engine the service runs (STT_ENGINE): a Whisper server when STT_BASE_URL is set, else the
// local pocketsphinx when Debian's package is installed, else none (mode=generate answers 501 STT_NOT_CONFIGURED).
import type { Config } from '../../config.ts';
import type { Speech, SpeechEngine } from '../../domain/speech/ports.ts';
import { createFfmpegAudioDecoder, type FfmpegAudioDecoderOptions } from '../ffmpeg/decode-audio.ts';
import type { Logger } from '../log/logger.ts';
import type { MediaGateway } from '../net/media-gateway.ts';
import { createOpenAiEngine } from './openai-engine.ts';
import { createPocketsphinxEngine, findPocketsphinx } from './pocketsphinx-engine.ts';

type SpeechConfig = Pick<
  Config,
  | 'STT_ENGINE'
  | 'STT_BASE_URL'
  | 'STT_API_KEY'
  | 'STT_MODEL'
  | 'STT_DIARIZE'
  | 'STT_TIMEOUT_MS'
  | 'STT_DECODE_TIMEOUT_MS'
  | 'PATH'
>;

export function createSpeech(
  config: SpeechConfig,
  opts: {
    ffmpegPath: string;
    extraOrigins: readonly string[];
    gateway: MediaGateway;
    egress?: FfmpegAudioDecoderOptions['egress'];
    log?: Pick<Logger, 'warn'>;
  },
): Speech | null {
  const engine = chooseEngine(config, opts.log);
  return engine
    ? {
        engine,
        decoder: createFfmpegAudioDecoder({
          ffmpegPath: opts.ffmpegPath,
          extraOrigins: opts.extraOrigins,
          gateway: opts.gateway,
          egress: opts.egress,
          timeoutMs: config.STT_DECODE_TIMEOUT_MS,
        }),
      }
    : null;
}

function chooseEngine(config: SpeechConfig, log?: Pick<Logger, 'warn'>): SpeechEngine | null {
  if (config.STT_ENGINE === 'off') return null;
  if (config.STT_BASE_URL && config.STT_ENGINE !== 'local') {
    return createOpenAiEngine({
      baseUrl: config.STT_BASE_URL,
      apiKey: config.STT_API_KEY,
      model: config.STT_MODEL,
      diarize: config.STT_DIARIZE,
      timeoutMs: config.STT_TIMEOUT_MS,
      log,
    });
  }
  const binary = findPocketsphinx(config.PATH);
  if (!binary && config.STT_ENGINE === 'local') {
    throw new Error(
      'STT_ENGINE=local needs pocketsphinx_continuous on PATH (Debian: apt-get install pocketsphinx pocketsphinx-en-us)',
    );
  }
  return binary ? createPocketsphinxEngine({ binary, timeoutMs: config.STT_TIMEOUT_MS }) : null;
}

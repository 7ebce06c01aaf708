// The video source for both kinds of id: YouTube ids go to YouTube; media-... ids (direct media URLs) are read from
// the URL stored with their video row, through the media gateway (ffprobe for info, the stream itself for audio and
// frames). A media id nobody has named a URL for is unknown.
import { ServiceError } from '../../domain/errors.ts';
import type { MediaProber, VideoSource } from '../../domain/ports.ts';
import type { VideoStore } from '../../domain/video/video-store.ts';
import { mediaVideo } from '../../domain/video/resolve-media.ts';
import { isMediaId } from '../../domain/video/video-ref.ts';

export function withDirectMedia(youtube: VideoSource, opts: { prober: MediaProber; videos: VideoStore }): VideoSource {
  const stored = async (id: string) => {
    const media = (await opts.videos.read(id))?.info;
    if (!media?.media) throw new ServiceError('VIDEO_NOT_FOUND', `Unknown media id ${id}: give its URL (url) instead`);
    return { info: media, url: media.media.url };
  };
  return {
    async getVideo(id, signal, purpose) {
      if (!isMediaId(id)) return youtube.getVideo(id, signal, purpose);
      const { url } = await stored(id);
      return mediaVideo(id, url, await opts.prober.probe(url, signal));
    },
    fetchTranscript: (track, signal) => youtube.fetchTranscript(track, signal),
    async getFrameSource(id, width, signal) {
      if (!isMediaId(id)) return youtube.getFrameSource(id, width, signal);
      const { info, url } = await stored(id);
      const video = info.media!.streams.find((s) => s.type === 'video');
      if (!video)
        throw new ServiceError('FRAME_FAILED', 'The media has no video stream to take a frame from', undefined, {
          final: true,
        });
      return { kind: 'stream', url, width: video.width ?? width, height: video.height ?? 0, direct: true };
    },
    async getAudioSource(id, signal) {
      if (!isMediaId(id)) {
        if (!youtube.getAudioSource)
          throw new ServiceError('EXTRACTION_FAILED', 'This video source has no audio streams');
        return youtube.getAudioSource(id, signal);
      }
      const { info, url } = await stored(id);
      if (!info.media!.streams.some((s) => s.type === 'audio'))
        throw new ServiceError('NO_SUBTITLES', 'The media has no audio stream to transcribe; nothing was charged');
      return { url, direct: true, kind: info.media!.kind, seconds: info.duration || null, bytes: info.media!.bytes };
    },
  };
}

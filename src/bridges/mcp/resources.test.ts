import { describe, expect, it } from 'vitest';
import { resourceLinksFor, transcriptUri } from './resources.ts';

describe('resourceLinksFor', () => {
  it('links what each tool made, and nothing for answers still running', () => {
    const uris = (tool: string, output: unknown) => resourceLinksFor(tool, output).map((l) => l.uri);
    expect(
      uris('get_video_subtitles', { status: 'succeeded', videoId: 'dQw4w9WgXcQ', lang: 'en', source: 'manual' }),
    ).toEqual(['subtext://videos/dQw4w9WgXcQ/transcript?lang=en']);
    expect(uris('get_video_subtitles', { status: 'queued', videoId: 'dQw4w9WgXcQ' })).toEqual([]);
    expect(
      uris('translate_transcript', {
        status: 'succeeded',
        translation: { videoId: 'dQw4w9WgXcQ', targetLang: 'pt-BR' },
      }),
    ).toEqual(['subtext://videos/dQw4w9WgXcQ/transcript?lang=pt-BR']);
    expect(uris('translate_transcript', { status: 'running' })).toEqual([]);
    const article = { id: 'art_1', title: 'T', videoId: 'dQw4w9WgXcQ', lang: 'en' };
    expect(uris('summarize_video', { status: 'succeeded', article })).toEqual(['subtext://articles/art_1']);
    expect(uris('get_article', article)).toEqual(['subtext://articles/art_1']);
    expect(uris('get_video_frame', { videoId: 'media-00ab', t: 1.5, mimeType: 'image/jpeg' })).toEqual([
      'subtext://frames/media-00ab/1.5',
    ]);
    expect(uris('get_job', { status: 'succeeded', result: { article } })).toEqual(['subtext://articles/art_1']);
    expect(uris('get_job', { result: { translation: { videoId: 'dQw4w9WgXcQ', targetLang: 'fr' } } })).toEqual([
      'subtext://videos/dQw4w9WgXcQ/transcript?lang=fr',
    ]);
    expect(uris('get_job', { status: 'running' })).toEqual([]);
    expect(uris('get_credits', { balance: 1 })).toEqual([]);
  });

  it('escapes ids and languages into the URI', () => {
    expect(transcriptUri('a/b', 'x y')).toBe('subtext://videos/a%2Fb/transcript?lang=x%20y');
  });
});

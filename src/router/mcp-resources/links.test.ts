import { describe, expect, it } from 'vitest';
import { getArticleMeta } from '../articles/get.meta.ts';
import { createArticleMeta } from '../articles/create.meta.ts';
import { getCreditsMeta } from '../credits/get.meta.ts';
import { getFrameMeta } from '../frames/get-one.meta.ts';
import { getJobMeta } from '../jobs/get.meta.ts';
import { getTranscriptMeta } from '../transcripts/get.meta.ts';
import { translateTranscriptMeta } from '../transcripts/translate.meta.ts';
import type { Meta } from '../trpc.ts';
import { transcriptUri } from './transcripts.ts';
import { templateMatcher } from './uri-template.ts';

describe('meta.mcp.links', () => {
  it('links what each tool made, and nothing for answers still running', () => {
    const uris = (meta: Meta, output: unknown) => (meta.mcp?.links?.(output) ?? []).map((l) => l.uri);
    expect(
      uris(getTranscriptMeta, { status: 'succeeded', videoId: 'dQw4w9WgXcQ', lang: 'en', source: 'manual' }),
    ).toEqual(['subtext://videos/dQw4w9WgXcQ/transcript?lang=en']);
    expect(uris(getTranscriptMeta, { status: 'queued', videoId: 'dQw4w9WgXcQ' })).toEqual([]);
    expect(
      uris(translateTranscriptMeta, {
        status: 'succeeded',
        translation: { videoId: 'dQw4w9WgXcQ', targetLang: 'pt-BR' },
      }),
    ).toEqual(['subtext://videos/dQw4w9WgXcQ/transcript?lang=pt-BR']);
    expect(uris(translateTranscriptMeta, { status: 'running' })).toEqual([]);
    const article = { id: 'art_1', title: 'T', videoId: 'dQw4w9WgXcQ', lang: 'en' };
    expect(uris(createArticleMeta, { status: 'succeeded', article })).toEqual(['subtext://articles/art_1']);
    expect(uris(getArticleMeta, article)).toEqual(['subtext://articles/art_1']);
    expect(uris(getFrameMeta, { videoId: 'media-00ab', t: 1.5, mimeType: 'image/jpeg' })).toEqual([
      'subtext://frames/media-00ab/1.5',
    ]);
    expect(uris(getJobMeta, { status: 'succeeded', result: { article } })).toEqual(['subtext://articles/art_1']);
    expect(uris(getJobMeta, { result: { translation: { videoId: 'dQw4w9WgXcQ', targetLang: 'fr' } } })).toEqual([
      'subtext://videos/dQw4w9WgXcQ/transcript?lang=fr',
    ]);
    expect(uris(getJobMeta, { status: 'running' })).toEqual([]);
    expect(uris(getCreditsMeta, { balance: 1 })).toEqual([]);
  });

  it('escapes ids and languages into the URI', () => {
    expect(transcriptUri('a/b', 'x y')).toBe('subtext://videos/a%2Fb/transcript?lang=x%20y');
  });

  it('matches a URI with its template, values decoded; a malformed escape or another shape is no match', () => {
    const match = templateMatcher('subtext://videos/{videoId}/transcript{?lang}');
    expect(match('subtext://videos/a%2Fb/transcript?lang=x%20y')).toEqual({ videoId: 'a/b', lang: 'x y' });
    expect(match('subtext://videos/abc/transcript')).toEqual({ videoId: 'abc', lang: undefined });
    expect(match('subtext://videos/abc/transcript?lang=')).toEqual({ videoId: 'abc', lang: undefined });
    expect(match('subtext://videos/%E0/transcript')).toBeUndefined();
    expect(match('subtext://videos/a/b/transcript')).toBeUndefined();
    expect(templateMatcher('subtext://frames/{videoId}/{t}')('subtext://frames/v/1.5')).toEqual({
      videoId: 'v',
      t: '1.5',
    });
  });
});

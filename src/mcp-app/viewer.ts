// The MCP App (io.modelcontextprotocol/ui) a host shows beside get_video_subtitles and search_articles: the transcript
// with clickable timestamps, the frame at the clicked moment, a translation side by side, SRT/VTT downloads. It holds
// no key: every call goes through the host to our tools, as the signed-in user of that host.
import { App, applyDocumentTheme } from '@modelcontextprotocol/ext-apps';

interface Segment {
  start: number;
  end: number;
  text: string;
}
interface TranscriptPage {
  videoId: string;
  lang: string;
  source?: string;
  segments: Segment[];
  nextOffset: number | null;
  content?: string;
}
interface ToolResult {
  isError?: boolean;
  content?: { type: string; text?: string; data?: string; mimeType?: string }[];
  structuredContent?: Record<string, unknown>;
}

const app = new App({ name: 'Subtext viewer', version: '1.0.0' });
const byId = (id: string) => document.getElementById(id) as HTMLElement;
const el = <K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, text = '') => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  node.textContent = text;
  return node;
};
const clock = (s: number) => {
  const t = Math.floor(s);
  const hms = [Math.floor(t / 3600), Math.floor((t % 3600) / 60), t % 60];
  return (
    (hms[0] ? `${hms[0]}:` : '') +
    hms
      .slice(1)
      .map((n, i) => (i || hms[0] ? String(n).padStart(2, '0') : n))
      .join(':')
  );
};
const status = (text: string) => {
  byId('status').textContent = text;
};

/** A tool called through the host; its error text (the service's error body) becomes the status line. */
async function call(name: string, args: Record<string, unknown>): Promise<ToolResult> {
  const r = (await app.callServerTool({ name, arguments: args })) as ToolResult;
  if (r.isError) throw new Error(r.content?.find((c) => c.type === 'text')?.text ?? `${name} failed`);
  return r;
}

let current: TranscriptPage | null = null;
let translated: Segment[] = [];

function row(s: Segment): HTMLElement {
  const li = el('li');
  const at = el('button', { class: 'at', 'data-t': String(s.start), type: 'button' }, clock(s.start));
  at.addEventListener('click', () => void showFrame(s.start));
  li.append(at, el('span', { class: 'text' }, s.text));
  // A translation keeps every segment's start: the one with this start goes beside it.
  const other = translated.find((t) => t.start === s.start);
  if (other) li.append(el('span', { class: 'translation' }, other.text));
  return li;
}

function renderTranscript() {
  if (!current) return;
  byId('title').textContent = `${current.videoId} · ${current.lang}${current.source ? ` · ${current.source}` : ''}`;
  const list = byId('segments');
  list.replaceChildren(...current.segments.map(row));
  byId('transcript').hidden = false;
  byId('results').hidden = true;
  (byId('more') as HTMLButtonElement).hidden = current.nextOffset === null;
}

async function showFrame(t: number) {
  if (!current) return;
  status(`Frame at ${clock(t)}…`);
  try {
    const r = await call('get_video_frame', { videoId: current.videoId, t: Math.floor(t), width: 480 });
    const image = r.content?.find((c) => c.type === 'image');
    if (!image?.data) throw new Error('No picture came back');
    const img = byId('frame') as HTMLImageElement;
    img.src = `data:${image.mimeType ?? 'image/jpeg'};base64,${image.data}`;
    img.alt = `Frame at ${clock(t)}`;
    img.dataset.t = String(Math.floor(t));
    img.hidden = false;
    status(`Frame at ${clock(t)}`);
  } catch (err) {
    status((err as Error).message);
  }
}

async function loadMore() {
  if (current?.nextOffset == null) return;
  const r = await call('get_video_subtitles', {
    videoId: current.videoId,
    lang: current.lang,
    offset: current.nextOffset,
  });
  const next = r.structuredContent as unknown as TranscriptPage;
  current = { ...current, segments: [...current.segments, ...next.segments], nextOffset: next.nextOffset };
  renderTranscript();
}

/** A translation may run as a job: polled until it ends. Its segments keep the source's order and times. */
async function translate(targetLang: string) {
  if (!current || !targetLang) return;
  status(`Translating into ${targetLang}…`);
  try {
    const args = { videoId: current.videoId, sourceLang: current.lang, targetLang };
    let out = (await call('translate_transcript', args)).structuredContent ?? {};
    while (out.status === 'queued' || out.status === 'running') {
      await new Promise((r) => setTimeout(r, 2000));
      const job = (await call('get_job', { id: (out.job as { id: string }).id })).structuredContent ?? {};
      out = { ...job, ...((job.result as Record<string, unknown> | undefined) ?? {}) };
    }
    translated = ((out.translation as { segments?: Segment[] } | undefined)?.segments ?? []) as Segment[];
    renderTranscript();
    status(`Translated into ${targetLang}`);
  } catch (err) {
    status((err as Error).message);
  }
}

/** The whole transcript as a file: every page in that format, through the host's download when it offers one. */
async function download(format: 'srt' | 'vtt') {
  if (!current) return;
  let text = '';
  let offset: number | null = 0;
  while (offset !== null) {
    const r = await call('get_video_subtitles', { videoId: current.videoId, lang: current.lang, format, offset });
    const page = r.structuredContent as unknown as TranscriptPage;
    text += offset > 0 && format === 'vtt' ? (page.content ?? '').replace(/^WEBVTT\s*/, '') : (page.content ?? '');
    offset = page.nextOffset;
  }
  const name = `${current.videoId}.${current.lang}.${format}`;
  const mimeType = format === 'srt' ? 'application/x-subrip' : 'text/vtt';
  if (app.getHostCapabilities()?.downloadFile) {
    await app.downloadFile({
      contents: [{ type: 'resource', resource: { uri: `file:///${name}`, mimeType, text } }],
    });
  } else {
    const a = el('a', { href: URL.createObjectURL(new Blob([text], { type: mimeType })), download: name });
    a.click();
  }
  status(`Downloaded ${name}`);
}

function renderResults(out: Record<string, unknown>) {
  const hits = (out.results ?? []) as { id: string; videoId: string; title: string; summary: string }[];
  const list = byId('hits');
  list.replaceChildren(
    ...hits.map((h) => {
      const li = el('li');
      const open = el('button', { class: 'open', type: 'button' }, h.title);
      open.addEventListener('click', async () => {
        try {
          const r = await call('get_video_subtitles', { videoId: h.videoId });
          current = r.structuredContent as unknown as TranscriptPage;
          translated = [];
          renderTranscript();
        } catch (err) {
          status((err as Error).message);
        }
      });
      li.append(open, el('p', {}, h.summary));
      return li;
    }),
  );
  byId('results').hidden = false;
  byId('transcript').hidden = true;
  status(`${hits.length} of ${out.total ?? hits.length} articles`);
}

function show(result: ToolResult) {
  const out = result.structuredContent;
  if (!out || result.isError) return status('The tool answered an error; nothing to show.');
  if (Array.isArray(out.segments)) {
    current = out as unknown as TranscriptPage;
    translated = [];
    renderTranscript();
    status(`${current.segments.length} segments`);
  } else if (Array.isArray(out.results)) renderResults(out);
  else status(String(out.status ?? 'Waiting for the result…'));
}

app.ontoolresult = (result) => show(result as ToolResult);
app.onhostcontextchanged = (ctx) => {
  if (ctx.theme) applyDocumentTheme(ctx.theme);
};
byId('more').addEventListener('click', () => void loadMore().catch((e: Error) => status(e.message)));
byId('srt').addEventListener('click', () => void download('srt').catch((e: Error) => status(e.message)));
byId('vtt').addEventListener('click', () => void download('vtt').catch((e: Error) => status(e.message)));
// Buttons, not a form: a host's sandbox may not allow form submission.
byId('translate').addEventListener('click', () => void translate((byId('target') as HTMLInputElement).value.trim()));
await app.connect();
const theme = app.getHostContext()?.theme;
if (theme) applyDocumentTheme(theme);

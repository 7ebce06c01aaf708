import { codeBlock, h } from '../dom.ts';
import type { Page } from '../router.ts';

const KEY = 'sk_your_key_here';

const section = (title: string, ...body: (HTMLElement | string)[]) =>
  h('section', { class: 'card' }, h('h2', null, title), ...body);

/** The page's heading and where a key comes from. */
function intro(): HTMLElement[] {
  return [
    h('h1', { tabindex: -1 }, 'Connect your apps'),
    h(
      'p',
      null,
      'Everything on this site is also an API. Create a key on the ',
      h('a', { href: '/keys' }, 'API keys'),
      ' page and put it where the examples say ',
      h('code', null, KEY),
      '. Calls spend the same credits as the website.',
    ),
  ];
}

function restSection(base: string): HTMLElement {
  return section(
    'REST with curl',
    h('p', null, 'Send the key in either header; they are equivalent.'),
    codeBlock(
      `curl -H "Authorization: Bearer ${KEY}" \\\n  -H "Content-Type: application/json" \\\n  -d '{"url":"https://www.youtube.com/watch?v=dQw4w9WgXcQ"}' \\\n  ${base}/api/v1/subtitles`,
      'Bearer example',
    ),
    codeBlock(`curl -H "x-api-key: ${KEY}" ${base}/api/v1/credits`, 'x-api-key example'),
    h(
      'p',
      null,
      'Every endpoint, with its parameters and answers, is in the ',
      h('a', { href: '/docs' }, 'API reference'),
      '.',
    ),
  );
}

/** The endpoint, and Claude Code's one-line setup. */
function mcpIntro(mcp: string): HTMLElement[] {
  return [
    h(
      'p',
      null,
      'The MCP endpoint needs nothing installed: give your client the URL ',
      h('code', null, mcp),
      ' and the key in the ',
      h('code', null, 'Authorization'),
      ' header.',
    ),
    h('h3', null, 'Claude Code'),
    codeBlock(
      `claude mcp add --transport http subtext ${mcp} \\\n  --header "Authorization: Bearer ${KEY}"`,
      'Claude Code command',
    ),
  ];
}

function cursorSetup(mcp: string): HTMLElement[] {
  return [
    h('h3', null, 'Cursor'),
    h(
      'p',
      null,
      'In ',
      h('code', null, '~/.cursor/mcp.json'),
      ' (or ',
      h('code', null, '.cursor/mcp.json'),
      ' in a project):',
    ),
    codeBlock(
      JSON.stringify({ mcpServers: { subtext: { url: mcp, headers: { Authorization: `Bearer ${KEY}` } } } }, null, 2),
      'Cursor configuration',
    ),
  ];
}

function claudeDesktopSetup(mcp: string): HTMLElement[] {
  return [
    h('h3', null, 'Claude Desktop'),
    h(
      'p',
      null,
      'In ',
      h('code', null, 'claude_desktop_config.json'),
      ' (Settings → Developer → Edit Config), through the ',
      h('code', null, 'mcp-remote'),
      ' bridge:',
    ),
    codeBlock(
      JSON.stringify(
        {
          mcpServers: {
            subtext: {
              command: 'npx',
              // mcp-remote expands ${AUTH_HEADER} from env itself (a literal, not a template).
              // biome-ignore lint/suspicious/noTemplateCurlyInString: see above
              args: ['-y', 'mcp-remote', mcp, '--header', 'Authorization:${AUTH_HEADER}'],
              env: { AUTH_HEADER: `Bearer ${KEY}` },
            },
          },
        },
        null,
        2,
      ),
      'Claude Desktop configuration',
    ),
  ];
}

function otherClientsSetup(mcp: string): HTMLElement[] {
  return [
    h('h3', null, 'Other clients'),
    codeBlock(
      JSON.stringify(
        { mcpServers: { subtext: { type: 'http', url: mcp, headers: { Authorization: `Bearer ${KEY}` } } } },
        null,
        2,
      ),
      'Generic MCP configuration',
    ),
  ];
}

function mcpSection(mcp: string): HTMLElement {
  return section(
    'MCP for AI assistants',
    ...mcpIntro(mcp),
    ...cursorSetup(mcp),
    ...claudeDesktopSetup(mcp),
    ...otherClientsSetup(mcp),
  );
}

function trpcSection(base: string): HTMLElement {
  return section(
    'TypeScript with tRPC',
    h('p', null, 'The website itself talks to Subtext this way, with types from end to end.'),
    codeBlock(
      `import { createTRPCClient, httpLink } from '@trpc/client';\nimport type { AppRouter } from 'subtext/src/router/index.ts';\n\nconst subtext = createTRPCClient<AppRouter>({\n  links: [httpLink({\n    url: '${base}/trpc',\n    headers: { authorization: 'Bearer ${KEY}' },\n  })],\n});\n\nconst { segments } = await subtext.subtitles.get.mutate({ videoId: 'dQw4w9WgXcQ' });\nconst credits = await subtext.credits.get.query({});`,
      'TypeScript example',
    ),
  );
}

export const connectPage: Page = {
  title: 'Connect',
  auth: true,
  render(main) {
    const base = location.origin;
    const mcp = `${base}/mcp`;
    main.append(...intro(), restSection(base), mcpSection(mcp), trpcSection(base));
  },
};

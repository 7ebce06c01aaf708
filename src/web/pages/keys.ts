import { api, explain } from '../api.ts';
import { busy, copyButton, field, h, messageArea, replace } from '../dom.ts';
import { dateTime } from '../format.ts';
import type { Page } from '../router.ts';

type KeyRow = Awaited<ReturnType<typeof api.keys.list.query>>[number];
type ConnectionRow = Awaited<ReturnType<typeof api.connections.list.query>>[number];

/** The form that creates a key, shown once in `created`; the lists are refreshed after. */
function keyForm(created: HTMLElement, refresh: () => Promise<void>): HTMLFormElement {
  const name = h('input', {
    type: 'text',
    name: 'name',
    required: true,
    maxlength: 100,
    placeholder: 'e.g. laptop, n8n, Claude',
  });
  const expires = h('input', {
    type: 'date',
    name: 'expires',
    min: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
  });
  const create = h('button', { type: 'submit', class: 'primary' }, 'Create key');
  const message = messageArea();
  const form = h(
    'form',
    { class: 'card' },
    h('h2', null, 'Create a key'),
    h(
      'div',
      { class: 'row' },
      field('Name', name, 'So you can tell your keys apart.'),
      field(
        'Expires (optional)',
        expires,
        'The key stops working at the end of this day (UTC). Leave empty for no expiry.',
      ),
    ),
    message,
    create,
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    message.clear();
    try {
      const key = await busy(create, 'Creating…', () =>
        api.keys.create.mutate({
          name: name.value,
          expiresAt: expires.value ? `${expires.value}T23:59:59Z` : undefined,
        }),
      );
      replace(created, shownOnce(key.key, key.name));
      created.querySelector<HTMLElement>('h2')?.focus();
      form.reset();
      await refresh();
    } catch (err) {
      message.error(explain(err));
    }
  });
  return form;
}

function intro(): HTMLElement[] {
  return [
    h('h1', { tabindex: -1 }, 'API keys'),
    h(
      'p',
      null,
      'A key lets a script, an app or an AI agent use Subtext as you, spending your credits. Send it as ',
      h('code', null, 'Authorization: Bearer <key>'),
      ' or ',
      h('code', null, 'x-api-key: <key>'),
      '. ',
      h('a', { href: '/connect' }, 'How to connect'),
    ),
  ];
}

function keysSection(listMessage: HTMLElement, list: HTMLElement): HTMLElement {
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'keys-heading' },
    h('h2', { id: 'keys-heading' }, 'Your keys'),
    listMessage,
    list,
  );
}

function appsSection(appsMessage: HTMLElement, apps: HTMLElement): HTMLElement {
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'apps-heading' },
    h('h2', { id: 'apps-heading' }, 'Connected applications'),
    h('p', null, 'MCP clients you allowed by signing in (OAuth). They act as you, like a key.'),
    appsMessage,
    apps,
  );
}

export const keysPage: Page = {
  title: 'API keys',
  auth: true,
  async render(main) {
    const created = h('div', { class: 'created' });
    const list = h('div', { class: 'table-wrap' });
    const listMessage = messageArea();
    const apps = h('div', { class: 'table-wrap' });
    const appsMessage = messageArea();
    const refresh = async () => {
      try {
        const [keys, connections] = await Promise.all([api.keys.list.query({}), api.connections.list.query({})]);
        replace(list, keyTable(keys, refresh, listMessage));
        replace(apps, connectionTable(connections, refresh, appsMessage));
      } catch (err) {
        listMessage.error(explain(err));
      }
    };
    main.append(
      ...intro(),
      created,
      keyForm(created, refresh),
      keysSection(listMessage, list),
      appsSection(appsMessage, apps),
    );
    await refresh();
  },
};

function shownOnce(key: string, name: string): HTMLElement {
  const input = h('input', {
    type: 'text',
    readonly: true,
    value: key,
    class: 'secret',
    'aria-label': `New key ${name}`,
    spellcheck: 'false',
  });
  input.addEventListener('focus', () => input.select());
  return h(
    'section',
    { class: 'card once', role: 'status' },
    h('h2', { tabindex: -1 }, `Your new key “${name}”`),
    h(
      'p',
      { class: 'warning' },
      h('strong', null, 'Copy it now: this is the only time it is shown. '),
      'Subtext keeps only a fingerprint of it, so it cannot be shown again. If you lose it, revoke it and create another.',
    ),
    h(
      'div',
      { class: 'copy-row' },
      input,
      copyButton(() => key, 'Copy key'),
    ),
  );
}

function keyTable(keys: KeyRow[], refresh: () => Promise<void>, message: ReturnType<typeof messageArea>): HTMLElement {
  if (keys.length === 0) return h('p', null, 'No keys yet. Create one above.');
  return h(
    'table',
    { class: 'keys' },
    h('caption', { class: 'visually-hidden' }, 'Your API keys'),
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        ...['Name', 'Key', 'Created', 'Last used', 'Expires', 'Status', ''].map((t) => h('th', { scope: 'col' }, t)),
      ),
    ),
    h(
      'tbody',
      null,
      ...keys.map((k) => {
        const revoke = h('button', { type: 'button', class: 'danger', 'aria-label': `Revoke key ${k.name}` }, 'Revoke');
        revoke.addEventListener('click', async () => {
          if (!confirm(`Revoke “${k.name}”? Anything using it stops working immediately.`)) return;
          try {
            await busy(revoke, 'Revoking…', () => api.keys.revoke.mutate({ id: k.id }));
            message.info(`Key “${k.name}” revoked.`);
            await refresh();
          } catch (err) {
            message.error(explain(err));
          }
        });
        return h(
          'tr',
          { 'data-key-id': k.id },
          h('td', { 'data-label': 'Name' }, k.name),
          h('td', { 'data-label': 'Key' }, h('code', null, `${k.prefix}…`)),
          h('td', { 'data-label': 'Created' }, dateTime(k.createdAt)),
          h('td', { 'data-label': 'Last used' }, k.lastUsedAt ? dateTime(k.lastUsedAt) : 'Never'),
          h('td', { 'data-label': 'Expires' }, k.expiresAt ? dateTime(k.expiresAt) : 'Never'),
          h('td', { 'data-label': 'Status' }, h('span', { class: `status status-${k.status}` }, k.status)),
          h('td', null, k.status === 'active' ? revoke : null),
        );
      }),
    ),
  );
}

function connectionTable(
  rows: ConnectionRow[],
  refresh: () => Promise<void>,
  message: ReturnType<typeof messageArea>,
): HTMLElement {
  if (rows.length === 0) return h('p', null, 'No connected applications.');
  return h(
    'table',
    { class: 'keys' },
    h('caption', { class: 'visually-hidden' }, 'Connected applications'),
    h(
      'thead',
      null,
      h('tr', null, ...['Application', 'Allowed', 'Last used', 'Status', ''].map((t) => h('th', { scope: 'col' }, t))),
    ),
    h(
      'tbody',
      null,
      ...rows.map((c) => {
        const revoke = h(
          'button',
          { type: 'button', class: 'danger', 'aria-label': `Revoke access of ${c.clientName}` },
          'Revoke',
        );
        revoke.addEventListener('click', async () => {
          if (!confirm(`Revoke the access of “${c.clientName}”? It must ask you again to reconnect.`)) return;
          try {
            await busy(revoke, 'Revoking…', () => api.connections.revoke.mutate({ id: c.id }));
            message.info(`Access of “${c.clientName}” revoked.`);
            await refresh();
          } catch (err) {
            message.error(explain(err));
          }
        });
        return h(
          'tr',
          { 'data-connection-id': c.id },
          h('td', { 'data-label': 'Application' }, c.clientName),
          h('td', { 'data-label': 'Allowed' }, dateTime(c.createdAt)),
          h('td', { 'data-label': 'Last used' }, c.lastUsedAt ? dateTime(c.lastUsedAt) : 'Never'),
          h('td', { 'data-label': 'Status' }, h('span', { class: `status status-${c.status}` }, c.status)),
          h('td', null, c.status === 'active' ? revoke : null),
        );
      }),
    ),
  );
}

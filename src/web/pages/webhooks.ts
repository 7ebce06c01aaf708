import { api, explain } from '../api.ts';
import { busy, copyButton, h, messageArea, replace } from '../dom.ts';
import { dateTime } from '../format.ts';
import type { Page } from '../router.ts';

type Settings = Awaited<ReturnType<typeof api.webhooks.settings.query>>;
type Delivery = Settings['deliveries'][number];

export const webhooksPage: Page = {
  title: 'Webhooks',
  auth: true,
  async render(main) {
    const message = messageArea();
    const secretBox = h('div');
    const list = h('div', { class: 'table-wrap' });

    const refresh = async () => {
      try {
        const s = await api.webhooks.settings.query({});
        replace(secretBox, secretRow(s.secret));
        replace(list, deliveryTable(s.deliveries, refresh, message));
      } catch (err) {
        message.error(explain(err));
      }
    };

    const rotate = h('button', { type: 'button', class: 'danger' }, 'Rotate secret');
    rotate.addEventListener('click', async () => {
      if (!confirm('Receivers verifying with the current secret will reject the next events. Rotate?')) return;
      try {
        await busy(rotate, 'Rotating…', () => api.webhooks.rotateSecret.mutate({}));
        await refresh();
      } catch (err) {
        message.error(explain(err));
      }
    });

    main.append(
      h('h1', { tabindex: -1 }, 'Webhooks'),
      h(
        'p',
        null,
        'Give a batch a ',
        h('code', null, 'callbackUrl'),
        ' and Subtext POSTs a signed event there when it ends (Standard Webhooks: ',
        h('code', null, 'webhook-id'),
        ', ',
        h('code', null, 'webhook-timestamp'),
        ', ',
        h('code', null, 'webhook-signature'),
        '), retrying for up to a day.',
      ),
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'secret-heading' },
        h('h2', { id: 'secret-heading' }, 'Signing secret'),
        secretBox,
        rotate,
      ),
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'deliveries-heading' },
        h('h2', { id: 'deliveries-heading' }, 'Recent deliveries'),
        message,
        list,
      ),
    );
    await refresh();
  },
};

function secretRow(secret: string): HTMLElement {
  const input = h('input', {
    type: 'text',
    readonly: true,
    value: secret,
    class: 'secret',
    'aria-label': 'Webhook signing secret',
    spellcheck: 'false',
  });
  input.addEventListener('focus', () => input.select());
  return h(
    'div',
    { class: 'copy-row' },
    input,
    copyButton(() => secret, 'Copy secret'),
  );
}

function deliveryTable(
  rows: Delivery[],
  refresh: () => Promise<void>,
  message: ReturnType<typeof messageArea>,
): HTMLElement {
  if (rows.length === 0) return h('p', null, 'No webhooks sent yet.');
  return h(
    'table',
    { class: 'deliveries' },
    h('caption', { class: 'visually-hidden' }, 'Recent webhook deliveries'),
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        ...['Sent', 'Event', 'Job', 'URL', 'Status', 'Attempts', ''].map((t) => h('th', { scope: 'col' }, t)),
      ),
    ),
    h(
      'tbody',
      null,
      ...rows.map((d) => {
        const resend = h('button', { type: 'button', 'aria-label': `Resend ${d.id}` }, 'Resend');
        resend.addEventListener('click', async () => {
          try {
            await busy(resend, 'Sending…', () => api.webhooks.resend.mutate({ id: d.id }));
            await refresh();
          } catch (err) {
            message.error(explain(err));
          }
        });
        const last = d.attempts.at(-1);
        return h(
          'tr',
          null,
          h('td', null, dateTime(d.createdAt)),
          h('td', null, d.event),
          h('td', null, h('code', null, d.jobId)),
          h('td', null, d.url),
          h('td', null, d.status),
          h('td', null, `${d.attempts.length}${last ? ` (last: ${last.statusCode ?? last.error ?? '?'})` : ''}`),
          h('td', null, resend),
        );
      }),
    ),
  );
}

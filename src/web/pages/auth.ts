import { api, explain } from '../api.ts';
import { busy, field, h, messageArea, replace } from '../dom.ts';
import { navigate, type Page } from '../router.ts';
import { session } from '../session.ts';

type SignUpMode = 'open' | 'closed' | 'invite';
type Inputs = { invite: HTMLInputElement | null; email: HTMLInputElement; password: HTMLInputElement };
type Message = ReturnType<typeof messageArea>;

function showSignUpClosed(main: HTMLElement): void {
  replace(
    main,
    h('h1', { tabindex: -1 }, 'Sign-up is closed'),
    h('p', null, 'This server does not take new accounts; ask its operator for one.'),
    h('p', null, 'Already have an account? ', h('a', { href: '/sign-in' }, 'Sign in')),
  );
}

function credentialInputs(signingUp: boolean, signUpMode: SignUpMode, query: URLSearchParams): Inputs {
  // An operator's invite link may carry the code (?invite=...).
  const invite =
    signingUp && signUpMode === 'invite'
      ? h('input', {
          type: 'text',
          name: 'invite',
          required: true,
          autocomplete: 'off',
          value: query.get('invite') ?? '',
        })
      : null;
  const email = h('input', { type: 'email', name: 'email', required: true, autocomplete: 'email', inputmode: 'email' });
  const password = h('input', {
    type: 'password',
    name: 'password',
    required: true,
    minlength: signingUp ? 10 : null,
    autocomplete: signingUp ? 'new-password' : 'current-password',
  });
  return { invite, email, password };
}

function credentialForm(signingUp: boolean, inputs: Inputs, message: Message, submit: HTMLElement): HTMLFormElement {
  const { invite, email, password } = inputs;
  return h(
    'form',
    { class: 'card narrow', novalidate: false },
    field('Email', email),
    field(
      'Password',
      password,
      signingUp
        ? 'At least 10 characters. A passphrase of a few words is easy to remember and hard to guess.'
        : undefined,
    ),
    invite ? field('Invite code', invite, 'Sign-up here needs an invite from the operator of this server.') : null,
    message,
    submit,
  );
}

/** Signs in or up with what the form holds, then goes where `?next=` says (a local path) or to the default page. */
async function submitCredentials(
  e: SubmitEvent,
  signingUp: boolean,
  inputs: Inputs,
  submit: HTMLButtonElement,
  message: Message,
  query: URLSearchParams,
): Promise<void> {
  const { invite, email, password } = inputs;
  e.preventDefault();
  message.clear();
  try {
    const input = { email: email.value, password: password.value };
    session.current = await busy(submit, signingUp ? 'Creating account…' : 'Signing in…', () =>
      signingUp
        ? api.account.signUp.mutate({ ...input, ...(invite ? { inviteCode: invite.value } : {}) })
        : api.account.signIn.mutate(input),
    );
    const next = query.get('next');
    const target = next?.startsWith('/') && !next.startsWith('//') ? next : signingUp ? '/keys' : '/service';
    // An OAuth authorization (an MCP client asking for access) is a server page, not one of the website's.
    if (target.startsWith('/oauth/')) location.assign(target);
    else navigate(target);
  } catch (err) {
    message.error(explain(err));
    password.focus();
  }
}

/** The page around the form: its heading, the free-credits line on sign-up, the link to the other form. */
function authPage(signingUp: boolean, form: HTMLFormElement): (HTMLElement | null)[] {
  return [
    h('h1', { tabindex: -1 }, signingUp ? 'Create your Subtext account' : 'Sign in to Subtext'),
    signingUp
      ? h(
          'p',
          null,
          'Every account gets free credits every day. Use them here, or create an API key for scripts and AI agents.',
        )
      : null,
    form,
    h(
      'p',
      null,
      signingUp ? 'Already have an account? ' : 'New here? ',
      h('a', { href: signingUp ? '/sign-in' : '/sign-up' }, signingUp ? 'Sign in' : 'Create an account'),
    ),
  ];
}

function authForm(
  mode: 'sign-in' | 'sign-up',
  main: HTMLElement,
  query: URLSearchParams,
  signUpMode: SignUpMode = 'open',
): void {
  const signingUp = mode === 'sign-up';
  if (signingUp && signUpMode === 'closed') {
    showSignUpClosed(main);
    return;
  }
  const inputs = credentialInputs(signingUp, signUpMode, query);
  const submit = h('button', { type: 'submit', class: 'primary' }, signingUp ? 'Create account' : 'Sign in');
  const message = messageArea();
  const form = credentialForm(signingUp, inputs, message, submit);
  form.addEventListener('submit', (e) => submitCredentials(e, signingUp, inputs, submit, message, query));
  replace(main, ...authPage(signingUp, form));
}

export const signInPage: Page = {
  title: 'Sign in',
  auth: false,
  render: (main, _p, q) => authForm('sign-in', main, q),
};
export const signUpPage: Page = {
  title: 'Sign up',
  auth: false,
  render: async (main, _p, q) => {
    const { mode } = await api.account.signUpMode.query().catch(() => ({ mode: 'open' as const }));
    authForm('sign-up', main, q, mode);
  },
};

import { api } from './api.ts';
import { layout } from './layout.ts';
import { articlePage, articlesPage } from './pages/articles.ts';
import { signInPage, signUpPage } from './pages/auth.ts';
import { connectPage } from './pages/connect.ts';
import { webhooksPage } from './pages/webhooks.ts';
import { watchesPage } from './pages/watches.ts';
import { homePage } from './pages/home.ts';
import { keysPage } from './pages/keys.ts';
import { servicePage } from './pages/service.ts';
import { usagePage } from './pages/usage.ts';
import { route, startRouter } from './router.ts';
import { session } from './session.ts';

route('/', homePage);
route('/sign-in', signInPage);
route('/sign-up', signUpPage);
route('/service', servicePage);
route('/articles', articlesPage);
route('/articles/:id', articlePage);
route('/keys', keysPage);
route('/usage', usagePage);
route('/connect', connectPage);
route('/webhooks', webhooksPage);
route('/watches', watchesPage);

async function boot() {
  try {
    session.current = await api.account.me.query({});
  } catch {
    session.current = null;
  }
  startRouter(layout);
}

void boot();

// Review (the operator's account): every request for an age-gated video sent two requests as the signed-in account
// (YOUTUBE_AGE_GATE_COOKIES_FILE), every time it was asked, with nothing bounding them but the egress identities'
// shared hourly budget. A caller asking age-gated videos (the same one again, or many) made the service use the
// account as often as it liked: what gets the account banned. The signed-in requests now have an hourly budget of
// their own (YOUTUBE_AGE_GATE_PER_HOUR, default 20) across the cluster; past it the answer is the age gate's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Sql } from '../../db/client.ts';
import { createEgressStore } from '../../src/infra/postgres/youtube-egress.ts';
import { createYoutubeSource } from '../../src/infra/youtube/create-youtube-source.ts';
import { createTestDatabase } from '../support/databases.ts';
import { fakeYoutube, json } from '../support/fake-youtube.ts';
import { readShared, sharedAvailable } from '../support/fixture-files.ts';

const COOKIE = 'SAPISID=sapisid-of-a-test-account; LOGIN_INFO=login-info';
let db: { url: string; drop(): Promise<void> };
let sql: Sql;
beforeAll(async () => {
  db = await createTestDatabase();
  sql = connect(db.url, { max: 4 }).sql;
});
afterAll(async () => {
  await sql?.end({ timeout: 5 });
  await db?.drop();
});

describe.skipIf(!sharedAvailable)('the signed-in identity', () => {
  it('is asked at most YOUTUBE_AGE_GATE_PER_HOUR times an hour, however many age-gated videos are asked', async () => {
    const yt = fakeYoutube({ player: () => json(readShared('player.age-restricted.Njp5uhTorCo.json')) });
    const src = createYoutubeSource({
      baseUrl: 'http://127.0.0.1:1',
      fetch: yt.fetch,
      ageGateCookie: COOKIE,
      egress: { store: createEgressStore(sql), budgetPerHour: 10_000, cooldownBaseSeconds: 0, cooldownMaxSeconds: 60 },
    });
    for (let i = 0; i < 30; i++) {
      const id = `Njp5uhTo${String(i).padStart(3, '0')}`;
      await expect(src.getVideo(id)).rejects.toMatchObject({ code: 'VIDEO_AGE_RESTRICTED' });
    }
    const signedIn = yt.headers.filter((h) => h.get('cookie') === COOKIE).length;
    expect(signedIn).toBeGreaterThan(0);
    expect(signedIn).toBeLessThanOrEqual(20);
  });
});

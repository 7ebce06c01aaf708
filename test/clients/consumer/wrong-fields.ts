// Compiled by the test, which expects tsc to fail exactly on the lines marked `wrong:` (and nowhere else): a
// misspelt input field (body, path, query), a wrong value type and a misspelt output field, on each client.
import { createSubtextClient, createSubtextRestClient } from '@subtext/client';

const api = createSubtextClient({ url: 'http://localhost:3000', key: 'sk_test' });
const rest = createSubtextRestClient({ url: 'http://localhost:3000', key: 'sk_test' });

await api.subtitles.get.mutate({ videoId: 'dQw4w9WgXcQ', formatt: 'text' }); // wrong: formatt
await api.subtitles.get.mutate({ videoId: 'dQw4w9WgXcQ', limit: '10' }); // wrong: limit is a number
const credits = await api.credits.get.query({});
console.log(credits.balanse); // wrong: balanse

await rest.POST('/subtitles', { body: { videoId: 'dQw4w9WgXcQ', formatt: 'text' } }); // wrong: formatt
await rest.GET('/videos/{videoId}', { params: { path: { video: 'dQw4w9WgXcQ' } } }); // wrong: video
await rest.GET('/youtube/search', { params: { query: { query: 'cats', pagee: 2 } } }); // wrong: pagee
const { data } = await rest.GET('/credits');
console.log(data?.balanse); // wrong: balanse

import type { ArticleCategory } from './schemas.ts';

// Keyword stems per category (English plus a few common Romance/German forms). A stem matches a word that
// starts with it. Crude on purpose: the LLM generator picks categories properly; this is the offline fallback.
const KEYWORDS: Record<Exclude<ArticleCategory, 'other'>, string[]> = {
  education: ['learn', 'lesson', 'student', 'teach', 'course', 'lecture', 'school', 'university', 'exam', 'explain'],
  technology: [
    'software',
    'computer',
    'code',
    'program',
    'app',
    'device',
    'internet',
    'developer',
    'algorithm',
    'tech',
    'javascript',
    'python',
  ],
  science: [
    'science',
    'scien',
    'research',
    'experiment',
    'physics',
    'chemist',
    'biolog',
    'theory',
    'universe',
    'molecule',
    'energy',
  ],
  business: [
    'business',
    'company',
    'startup',
    'market',
    'customer',
    'product',
    'sales',
    'management',
    'empresa',
    'entreprise',
  ],
  finance: [
    'money',
    'invest',
    'stock',
    'finance',
    'bank',
    'crypto',
    'bitcoin',
    'price',
    'dollar',
    'economy',
    'inflation',
  ],
  health: ['health', 'doctor', 'disease', 'medical', 'exercise', 'diet', 'sleep', 'patient', 'symptom', 'mental'],
  entertainment: ['movie', 'film', 'show', 'actor', 'series', 'episode', 'comedy', 'celebrity', 'trailer'],
  gaming: ['game', 'gaming', 'player', 'level', 'boss', 'minecraft', 'console', 'playthrough', 'speedrun'],
  music: ['music', 'song', 'album', 'guitar', 'piano', 'singer', 'band', 'chord', 'melody', 'lyrics'],
  news: ['news', 'report', 'breaking', 'announced', 'according', 'official', 'yesterday', 'week'],
  politics: [
    'government',
    'election',
    'president',
    'policy',
    'minister',
    'vote',
    'congress',
    'parliament',
    'political',
    'law',
  ],
  sports: ['team', 'match', 'goal', 'season', 'league', 'coach', 'football', 'soccer', 'basketball', 'championship'],
  travel: ['travel', 'trip', 'city', 'hotel', 'flight', 'country', 'visit', 'tour', 'beach', 'island'],
  food: ['recipe', 'cook', 'food', 'eat', 'kitchen', 'ingredient', 'bake', 'flavor', 'restaurant', 'dish'],
  lifestyle: ['life', 'home', 'routine', 'fashion', 'style', 'family', 'morning', 'vlog', 'habit'],
  howto: ['step', 'tutorial', 'install', 'build', 'fix', 'guide', 'setup', 'tips', 'diy'],
};

/** The category whose stems match the most words (weighted by frequency), or 'other' below a minimum. */
export function guessCategory(termCounts: ReadonlyMap<string, number>, titleWords: readonly string[]): ArticleCategory {
  let best: ArticleCategory = 'other';
  let bestScore = 0;
  let total = 0;
  for (const n of termCounts.values()) total += n;
  for (const [category, stems] of Object.entries(KEYWORDS) as Array<[ArticleCategory, string[]]>) {
    let score = 0;
    for (const [word, n] of termCounts) if (stems.some((s) => word.startsWith(s))) score += n;
    // Title words say more about the topic than any one sentence.
    for (const word of titleWords) if (stems.some((s) => word.startsWith(s))) score += Math.max(3, total * 0.01);
    if (score > bestScore) [best, bestScore] = [category, score];
  }
  // Under ~1% of content words matching is noise, not a topic.
  return bestScore >= Math.max(3, total * 0.01) ? best : 'other';
}

// A small judged relevance set for article search: hand-written articles hidden among the generated ones, and queries
// with the article that must come first. The distractors mention the query words only in passing (body or summary),
// so a ranking that ignores where a word appears puts them first.

export interface JudgedArticle {
  id: string;
  title: string;
  summary: string;
  text: string;
  category: string;
  lang: string;
}

const a = (id: string, category: string, title: string, summary: string, text: string, lang = 'en'): JudgedArticle => ({
  id: `art_judged_${id}`,
  category,
  lang,
  title,
  summary,
  text,
});

export const JUDGED_ARTICLES: JudgedArticle[] = [
  a(
    'sourdough',
    'food',
    'Baking sourdough bread with a wild yeast starter',
    'How to feed a sourdough starter, shape the loaf and bake bread with an open crumb in a home oven.',
    'The starter needs flour and water every day. Bread dough rests overnight before baking in a dutch oven.',
  ),
  a(
    'bread_aside',
    'travel',
    'A week of walking in the Alps',
    'Mountain huts, long ridges and the bread we bought in small villages along the way.',
    'We carried cheese and bread, and once a jar of starter from a baker who liked our boots.',
  ),
  a(
    'kubernetes',
    'technology',
    'Autoscaling Kubernetes workloads on spot instances',
    'Horizontal pod autoscaling, cluster autoscaler settings and draining spot nodes without dropping requests.',
    'Kubernetes reschedules pods when a spot node is reclaimed; autoscaling reacts to queue length.',
  ),
  a(
    'k8s_aside',
    'business',
    'Cutting the cloud bill of a small startup',
    'Reserved capacity, right-sizing databases and a look at where the money actually went.',
    'A short aside on kubernetes: the cluster was idle most nights, so autoscaling down helped a little.',
  ),
  a(
    'photosynthesis',
    'science',
    'Photosynthesis explained: light reactions and the Calvin cycle',
    'Chlorophyll captures light, water is split, and the Calvin cycle fixes carbon dioxide into sugar.',
    'Plants, algae and some bacteria perform photosynthesis; the light reactions happen in the thylakoid membrane.',
  ),
  a(
    'photo_aside',
    'entertainment',
    'Behind the scenes of a nature documentary',
    'Months in the rainforest waiting for the right light, and the crew who made it happen.',
    'One scene about photosynthesis was cut; the narrator explained leaves and light instead.',
  ),
  a(
    'marathon',
    'sports',
    'Training plan for a first marathon in sixteen weeks',
    'Long runs, tempo runs, tapering and what to eat on race day for a first marathon.',
    'Most runners build weekly mileage slowly; the long run reaches 32 kilometres three weeks before the marathon.',
  ),
  a(
    'marathon_aside',
    'entertainment',
    'A movie marathon for a rainy weekend',
    'Twelve films, two days, and the snacks that kept us awake through the trilogy.',
    'Calling it a marathon is generous: we napped through the third film.',
  ),
  a(
    'inflation',
    'finance',
    'Why central banks raise interest rates to fight inflation',
    'Interest rates, money supply and expectations: how monetary policy cools prices and what it costs in jobs.',
    'When inflation runs above target the central bank raises its policy rate, borrowing slows and demand falls.',
  ),
  a(
    'inflation_aside',
    'food',
    'Cheap weeknight dinners',
    'Ten recipes under five euros a plate, with a note on how inflation changed our shopping.',
    'Lentils, eggs and seasonal vegetables; prices rose, so we cooked more beans.',
  ),
  a(
    'guitar',
    'music',
    "Learning guitar chords: a beginner's first month",
    'Open chords, strumming patterns and a practice routine for the first month of playing guitar.',
    'Start with G, C, D and E minor; change chords slowly and keep the metronome at sixty.',
  ),
  a(
    'vaccine',
    'health',
    'How mRNA vaccines teach the immune system',
    'Lipid nanoparticles deliver mRNA, cells make a spike protein, and the immune system learns to recognise it.',
    'The mRNA is broken down within days; antibodies and memory cells remain.',
  ),
  a(
    'chess',
    'gaming',
    'Chess openings for beginners: the Italian Game',
    'Control the centre, develop knights before bishops and castle early: the Italian Game step by step.',
    'After e4 e5 Nf3 Nc6 Bc4 white aims at the weak f7 square.',
  ),
  a(
    'climate',
    'science',
    'Ocean currents and climate: the Gulf Stream',
    'How the Atlantic overturning circulation carries heat north and why its slowdown matters for Europe.',
    'Warm surface water flows north, cools, sinks and returns south at depth.',
  ),
  a(
    'de_fahrrad',
    'travel',
    'Mit dem Fahrrad entlang der Donau',
    'Eine Radtour von Passau nach Wien: Etappen, Unterkünfte und die schönsten Abschnitte am Fluss.',
    'Der Donauradweg ist flach und gut ausgeschildert; im Sommer sind die Pensionen früh ausgebucht.',
    'de',
  ),
];

export interface JudgedQuery {
  query: string;
  lang?: string;
  category?: string;
  /** The article that must come first. */
  first: string;
}

export const JUDGED_QUERIES: JudgedQuery[] = [
  { query: 'sourdough bread', first: 'art_judged_sourdough' },
  { query: 'bread starter', first: 'art_judged_sourdough' },
  { query: 'kubernetes autoscaling', first: 'art_judged_kubernetes' },
  { query: 'photosynthesis', first: 'art_judged_photosynthesis' },
  { query: '"calvin cycle"', first: 'art_judged_photosynthesis' },
  { query: 'marathon training', first: 'art_judged_marathon' },
  { query: 'marathon -movie', first: 'art_judged_marathon' },
  { query: 'inflation interest rates', first: 'art_judged_inflation' },
  { query: 'inflation', first: 'art_judged_inflation' },
  { query: 'guitar chords', first: 'art_judged_guitar' },
  { query: 'mrna vaccine', first: 'art_judged_vaccine' },
  { query: 'chess opening', first: 'art_judged_chess' },
  { query: 'gulf stream', first: 'art_judged_climate' },
  { query: 'photosynthesis', category: 'science', first: 'art_judged_photosynthesis' },
  { query: 'Fahrrad Donau', lang: 'de', first: 'art_judged_de_fahrrad' },
  { query: 'radtour', first: 'art_judged_de_fahrrad' },
];

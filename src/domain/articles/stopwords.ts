// Function words for en, es, fr, de, pt, it: enough to keep them out of key terms; not linguistic completeness.
const LISTS = [
  // en
  'the a an and or but if then so of to in on at by for with from as is are was were be been being it its this that these those there here i you he she we they me him her us them my your his our their what which who whom whose when where why how all any both each few more most other some such no nor not only own same than too very can will just should now do does did doing have has had having would could also into about over after before under again further once up down out off above below between through during yeah okay ok like know going get got really gonna want thing things lot right well um uh oh',
  // es
  'el la los las un una unos unas y o pero si de del a en por para con sin sobre es son era fue ser estar está están esto esta este eso esa ese que qué como cómo cuando donde muy más menos ya no sí se lo le les me te nos mi tu su sus al también porque hay todo todos',
  // fr
  'le la les un une des et ou mais si de du au aux en dans par pour avec sans sur est sont était être avoir a ont ce cet cette ces que qui quoi comme quand où très plus moins pas ne se il elle ils elles on nous vous je tu me te lui leur mon ton son ma ta sa mes tes ses aussi donc alors tout tous',
  // de
  'der die das den dem des ein eine einer eines einem einen und oder aber wenn dann von zu im in am an auf mit für aus bei nach über unter ist sind war waren sein haben hat hatte es sie er wir ihr ich du nicht kein keine auch noch nur sehr mehr so wie was wer wo dass ja nein man mein dein sich',
  // pt
  'o a os as um uma uns umas e ou mas se de do da dos das em no na nos nas por para com sem sobre é são era foi ser estar está isso isto este esta esse essa que como quando onde muito mais menos já não sim lhe me te nos meu seu sua também porque tem',
  // it
  'il lo la i gli le un uno una e o ma se di del della dei delle a al alla in nel nella per con su è sono era essere avere ha hanno questo questa quello quella che come quando dove molto più meno già non sì si mi ti ci vi anche perché',
].join(' ');

const STOPWORDS: ReadonlySet<string> = new Set(LISTS.split(/\s+/));

/** Lower-cased words of at least 3 letters that are not stopwords (Unicode letters, so accents survive). */
export function contentWords(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? []).filter(
    (w) => w.length >= 3 && !STOPWORDS.has(w) && !/^\d+$/.test(w),
  );
}

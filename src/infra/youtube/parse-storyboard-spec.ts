// The storyboard spec in a player response (storyboards.playerStoryboardSpecRenderer.spec):
//   <url template with $L and $N>|<level 0>|<level 1>|...
// each level "width#height#count#columns#rows#intervalMs#name#sigh", where name may hold $M (the sheet index).
// Level L's sheets are the template with $L=L, $N=name, $M=sheet and the level's sigh as a query parameter.
export interface StoryboardLevel {
  level: number;
  thumbWidth: number;
  thumbHeight: number;
  count: number;
  columns: number;
  rows: number;
  /** Seconds between thumbnails; 0 when the spec leaves it out (level 0 spreads `count` over the video). */
  interval: number;
  sheetUrl: (index: number) => string;
}

export function parseStoryboardSpec(spec: string): StoryboardLevel[] {
  const [template, ...levels] = spec.split('|');
  if (!template || !/^https?:\/\//.test(template)) return [];
  const out: StoryboardLevel[] = [];
  levels.forEach((part, level) => {
    const [w, h, count, columns, rows, interval, name = 'default', sigh] = part.split('#');
    const nums = [w, h, count, columns, rows, interval].map((x) => Number(x));
    if (nums.some((n) => !Number.isFinite(n)) || !nums[0] || !nums[3] || !nums[4]) return;
    const [thumbWidth = 0, thumbHeight = 0, total = 0, cols = 0, rowCount = 0, intervalMs = 0] = nums;
    out.push({
      level,
      thumbWidth,
      thumbHeight,
      count: total,
      columns: cols,
      rows: rowCount,
      interval: intervalMs / 1000,
      sheetUrl: (index) => {
        const url = new URL(
          template.replaceAll('$L', String(level)).replaceAll('$N', name).replaceAll('$M', String(index)),
        );
        if (sigh) url.searchParams.set('sigh', sigh);
        return url.toString();
      },
    });
  });
  return out;
}

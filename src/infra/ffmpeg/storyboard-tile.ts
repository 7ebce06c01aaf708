import type { FrameSource } from '../../domain/ports.ts';

type Storyboard = Extract<FrameSource, { kind: 'storyboard' }>;

/** Which sheet holds the thumbnail shown at `t`, and where in it. Times past the end use the last thumbnail. */
export function storyboardTile(sb: Storyboard, t: number): { sheet: number; x: number; y: number } {
  const perSheet = sb.columns * sb.rows;
  const index = Math.max(0, Math.min(Math.floor(t / sb.interval), sb.count - 1));
  const inSheet = index % perSheet;
  return {
    sheet: Math.floor(index / perSheet),
    x: (inSheet % sb.columns) * sb.thumbWidth,
    y: Math.floor(inSheet / sb.columns) * sb.thumbHeight,
  };
}

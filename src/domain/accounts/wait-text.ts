/** "1 minute", "2 minutes", "45 seconds", "1 hour": a wait in words, rounded up to the unit shown. */
export function waitText(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  const [n, unit] = s < 60 ? [s, 'second'] : s < 3600 ? [Math.ceil(s / 60), 'minute'] : [Math.ceil(s / 3600), 'hour'];
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/** Operations served by plain routes rather than procedures (binary answers); added to the document here. */
export function extraPaths(): Record<string, unknown> {
  return {};
}

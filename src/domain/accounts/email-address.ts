// One email check for every way in (sign-up, sign-in, the CLI). The length is checked before the pattern, and the
// pattern is linear-time (no two quantifiers can take the same character), so no input can make it slow.
export const MAX_EMAIL_LENGTH = 254;

/** local@domain.tld, no whitespace, one @, no empty domain label. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;

export function isEmailAddress(normalized: string): boolean {
  return normalized.length <= MAX_EMAIL_LENGTH && EMAIL_PATTERN.test(normalized);
}

/** A command refused for how it was called: exit 2, with the command's help. */
export class UsageError extends Error {}

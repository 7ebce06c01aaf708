/** The one-line message for a Node.js older than the stack needs, or null when `version` (e.g. "v20.19.2") is new enough. */
export declare function nodeVersionProblem(version: string): string | null;

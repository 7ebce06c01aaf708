export type { SubtextClientOptions, SubtextCredential } from './options.js';
export {
  createSubtextClient,
  isSubtextError,
  TRPCClientError,
  type AppRouter,
  type RouterInputs,
  type RouterOutputs,
} from './trpc-client.js';
export {
  createSubtextRestClient,
  type components,
  type operations,
  type paths,
  type SubtextRestClient,
} from './rest-client.js';

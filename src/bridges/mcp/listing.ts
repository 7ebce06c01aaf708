// The one source of how the service lists itself: server.json for the MCP Registry (written by `npm run mcp:listing`)
// and the Server Card (SEP-2127) served at /.well-known/mcp/server-card.json. The name is a placeholder: a hosted
// transcript MCP already calls itself "Subtext"; whoever publishes changes these three settings here and nowhere else
// (test/contract/mcp-listing.test.ts then says which copies to regenerate: server.json, package.json, the Dockerfile).
import { MCP_PATH } from './path.ts';

/** The Registry name (a namespace the publisher owns, reverse-DNS or io.github.<owner>), placeholder. */
export const MCP_LISTING_NAME = 'io.github.subtext/subtext';
/** The name people read. */
const MCP_LISTING_TITLE = 'Subtext';
/** The container image, without its tag; placeholder. */
const MCP_LISTING_IMAGE = 'ghcr.io/subtext/subtext';
/** The service's version (package.json's; the drift test holds them equal). */
export const LISTED_VERSION = '0.1.0';
/** How /mcp introduces itself in initialize: the Registry name's last part, the title, the version. */
export const MCP_SERVER_INFO = {
  name: MCP_LISTING_NAME.slice(MCP_LISTING_NAME.lastIndexOf('/') + 1),
  title: MCP_LISTING_TITLE,
  version: LISTED_VERSION,
};
const DESCRIPTION = 'Timed transcripts, subtitle tracks, frames, translations and articles for YouTube videos';

const REGISTRY_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';
const CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';

const bearer = (description: string, keyDescription: string, isRequired: boolean) => ({
  name: 'Authorization',
  description,
  isRequired,
  isSecret: true,
  value: 'Bearer {api_key}',
  variables: { api_key: { description: keyDescription, isRequired: true, isSecret: true } },
});

const KEY_HELP = 'A Subtext API key (sk_...), from the website\u2019s /keys page or `npm run cli -- keys create`';
const optionalKey = () =>
  bearer('An API key as a bearer token; leave it out for clients that sign in with OAuth', KEY_HELP, false);

/** server.json: the self-hosted remote (`host` filled in by each user) and the container image. */
export function registryListing(version = LISTED_VERSION) {
  return {
    $schema: REGISTRY_SCHEMA,
    name: MCP_LISTING_NAME,
    title: MCP_LISTING_TITLE,
    description: DESCRIPTION,
    version,
    remotes: [
      {
        type: 'streamable-http',
        url: `https://{host}${MCP_PATH}`,
        variables: {
          host: {
            description: 'The host of your Subtext service (its PUBLIC_URL without https://)',
            isRequired: true,
            placeholder: 'subtext.example.com',
          },
        },
        headers: [optionalKey()],
      },
    ],
    packages: [
      {
        registryType: 'oci',
        identifier: `${MCP_LISTING_IMAGE}:${version}`,
        runtimeHint: 'docker',
        runtimeArguments: [{ type: 'named', name: '-p', value: '3000:3000' }],
        transport: {
          type: 'streamable-http',
          url: `http://localhost:3000${MCP_PATH}`,
          headers: [
            bearer(
              'An API key of this container\u2019s service, as a bearer token',
              'A key made with `docker exec <container> node src/cli.js keys create --email ... --name ...`',
              true,
            ),
          ],
        },
        environmentVariables: [
          {
            name: 'DATABASE_URL',
            description: 'PostgreSQL connection URL; all state lives there',
            isRequired: true,
            isSecret: true,
          },
          {
            name: 'PUBLIC_URL',
            description: 'The origin clients reach the service at',
            default: 'http://localhost:3000',
          },
        ],
      },
    ],
  };
}

/** The Server Card of this deployment: the same name and words, one remote at PUBLIC_URL's /mcp. */
export function serverCard(publicUrl: string, version = LISTED_VERSION) {
  const { name, title, description } = registryListing(version);
  return {
    $schema: CARD_SCHEMA,
    name,
    title,
    description,
    version,
    remotes: [{ type: 'streamable-http', url: `${publicUrl}${MCP_PATH}`, headers: [optionalKey()] }],
  };
}

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';

/** The MCP SDK's client-side OAuth, held in memory: what a desktop MCP client keeps in its settings. */
export class MemoryOAuthProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier?: string;
  /** The last authorization URL the SDK asked us to open in a browser. */
  authorizationUrl?: URL;
  readonly redirectUrl: string;
  readonly clientName: string;
  /** Set: the client names itself by this metadata document URL instead of registering. */
  readonly clientMetadataUrl?: string;
  constructor(redirectUrl: string, clientName = 'Test MCP Client', clientMetadataUrl?: string) {
    this.redirectUrl = redirectUrl;
    this.clientName = clientName;
    if (clientMetadataUrl) this.clientMetadataUrl = clientMetadataUrl;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.clientName,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      // MCP's SEP-837: a loopback redirect is a native application's.
      application_type: 'native',
    } as OAuthClientMetadata;
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    if (!this.verifier) throw new Error('no code verifier saved');
    return this.verifier;
  }
}

/** A loopback redirect target, as a native MCP client runs one: records the queries it is sent back with, in order. */
export async function startCallbackServer(): Promise<{
  url: string;
  received: () => Promise<URLSearchParams>;
  close(): Promise<void>;
}> {
  const arrived: URLSearchParams[] = [];
  const waiting: ((q: URLSearchParams) => void)[] = [];
  const server: Server = createServer((req, res) => {
    const q = new URL(req.url ?? '/', 'http://x').searchParams;
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p id="done">You can close this window.</p>');
    const w = waiting.shift();
    if (w) w(q);
    else arrived.push(q);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`,
    received: () => {
      const q = arrived.shift();
      return q ? Promise.resolve(q) : new Promise((r) => waiting.push(r));
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
}

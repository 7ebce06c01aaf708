// A minimal MCP Apps host, bundled for the browser by the test: it renders the viewer resource in a sandboxed iframe
// (scripts only, an opaque origin) and relays the view's requests through AppBridge to functions the test exposes,
// which call the real /mcp with the SDK's client, as a chat host's backend would.
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

declare global {
  interface Window {
    hostCallTool(params: unknown): Promise<unknown>;
    hostDownloads: { name: string; text: string }[];
    showApp(html: string, toolArguments: Record<string, unknown>, toolResult: unknown): Promise<void>;
  }
}

window.hostDownloads = [];
window.showApp = async (html, toolArguments, toolResult) => {
  const iframe = document.createElement('iframe');
  iframe.setAttribute('sandbox', 'allow-scripts');
  iframe.style.cssText = 'width: 720px; height: 900px; border: 1px solid #ccc';
  document.body.append(iframe);
  const bridge = new AppBridge(
    null,
    { name: 'subtext-test-host', version: '1.0.0' },
    { serverTools: {}, downloadFile: {} },
  );
  bridge.oncalltool = (params) => window.hostCallTool(params) as never;
  bridge.ondownloadfile = async ({ contents }) => {
    for (const c of contents)
      if (c.type === 'resource' && 'text' in c.resource)
        window.hostDownloads.push({ name: c.resource.uri, text: String(c.resource.text) });
    return {};
  };
  const initialized = new Promise<void>((resolve) => {
    bridge.oninitialized = () => resolve();
  });
  // The window proxy outlives the navigation to srcdoc: listen first, then load the view.
  await bridge.connect(new PostMessageTransport(iframe.contentWindow!, iframe.contentWindow!));
  iframe.srcdoc = html;
  await initialized;
  await bridge.sendToolInput({ arguments: toolArguments });
  await bridge.sendToolResult(toolResult as never);
};

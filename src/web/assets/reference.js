// The API reference: Scalar, served by this service from its npm package (no CDN), reading
// /openapi.json. Nothing leaves the page: no web fonts from elsewhere, no telemetry, none of
// Scalar's own services, and the page's Content-Security-Policy lets it talk to this origin only
// (the try-it console included). Options as @scalar/types 0.x (api-reference 1.72) names them.
window.Scalar.createApiReference('#reference', {
  url: '/openapi.json',
  withDefaultFonts: false,
  telemetry: false,
  // its AI agent would send the document to Scalar's service
  agent: { disabled: true },
  // "Generate MCP" and its install links: the service has its own MCP endpoint (/mcp)
  mcp: { disabled: true },
  // the Developer Tools bar (Configure, Share, Deploy), shown on localhost, publishes to Scalar's service
  showDeveloperTools: 'never',
  // the button that opens Scalar's separate API client app; each operation keeps its Test Request
  hideClientButton: true,
  // the introduction links /openapi.json itself
  documentDownloadType: 'none',
  // Scalar's own services, never called: nothing of them is enabled above, and the page may reach this origin only
  externalUrls: { dashboardUrl: '/docs', registryUrl: '/docs', proxyUrl: '', apiBaseUrl: '/docs' },
  // the errors catalogue is in the introduction; the Problem schema is under each error response
  hideModels: true,
  // every group open, so the sidebar lists every operation by name
  defaultOpenAllTags: true,
  defaultHttpClient: { targetKey: 'shell', clientKey: 'curl' },
  authentication: { preferredSecurityScheme: 'bearerAuth' },
});

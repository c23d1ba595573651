// The API reference: Scalar, served by this service from its npm package (no CDN), reading
// /openapi.json. Nothing leaves the page: no web fonts from elsewhere, no telemetry, and the
// page's Content-Security-Policy lets it talk to this origin only (the try-it console included).
window.Scalar.createApiReference('#reference', {
  url: '/openapi.json',
  withDefaultFonts: false,
  telemetry: false,
  // its AI agent would send the document to Scalar's service
  agent: { disabled: true },
  authentication: { preferredSecurityScheme: 'bearerAuth' },
});

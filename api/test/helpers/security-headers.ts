/**
 * Headers a browser reads only on a document it shows or a window it opens: the API's pages (the provider's, /docs)
 * carry them, its JSON answers do not (docs/decisions/0062-api-headers-by-kind-of-answer.md).
 */
export const documentOnlyHeaders = [
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-xss-protection',
] as const;

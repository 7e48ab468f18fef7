import { describe, expect, it } from 'vitest';
import nodeFetchUrl from '../../../functions/adapters/kubernetes/node-fetch-url.ts';

describe("the bundles' whatwg-url", () => {
  it("is Node.js's own URL, as node-fetch takes it where Node.js has one", () => {
    // Act
    const url = new nodeFetchUrl.URL(
      'https://0F1E2D3C.gr7.us-east-1.eks.amazonaws.com/api/v1/nodes',
    );

    // Assess
    expect(nodeFetchUrl.URL).toBe(URL);
    expect(url.pathname).toBe('/api/v1/nodes');
  });
});

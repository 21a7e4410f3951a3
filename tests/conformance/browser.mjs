#!/usr/bin/env node
// A browser for the conformance suite's authorization servers: it opens the
// authorization URL and follows the redirects, so the authorization code
// arrives at the client's loopback listener exactly as it would from a
// person's browser. The suite's authorization servers approve at once.
const res = await fetch(process.argv[2], { redirect: 'follow' });
await res.text();
process.exit(res.ok ? 0 : 1);

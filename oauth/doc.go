// Package oauth connects mcpexec to remote MCP servers that sit behind OAuth
// 2.1, using the official Go SDK's client-side authorization
// (github.com/modelcontextprotocol/go-sdk/auth and oauthex): protected
// resource and authorization server metadata discovery with the fallbacks of
// older servers, the authorization code grant with PKCE, client ID metadata
// documents, pre-registered clients, dynamic client registration, scopes
// from WWW-Authenticate or scopes_supported, and step-up on
// insufficient_scope all come from the SDK. This package adds what a
// long-running daemon needs around it:
//
//   - [NewHandler] builds the SDK's authorization code handler for one
//     server, seeded with the grant a [Store] kept from an earlier run.
//   - A [Store] keeps one [Grant] per server: the token and the client it
//     was issued to, so that a refresh works after a restart. [FileStore]
//     writes one file per server with 0600 permissions under [DefaultDir];
//     an embedder can put grants anywhere else (a keychain, a vault).
//   - Tokens are refreshed before they expire (a refresh token is used once
//     the access token has less than a minute left), and every new token
//     is saved at once.
//   - The one step that needs a person, opening the authorization URL and
//     coming back with the code, is an [Authorizer] the embedder provides.
//     [Loopback] is a ready one for programs on the person's own machine:
//     it shows the URL (the embedder decides how) and receives the browser's
//     redirect on a loopback listener.
//
// Tokens and client secrets never appear in an error or a log line: errors
// that leave this package have every secret it knows replaced.
package oauth

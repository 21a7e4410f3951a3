package oauth

import (
	"errors"
	"net/url"
)

// Config is one server's OAuth settings, the "oauth" object of its entry in
// the servers file. Every field is optional: a server that asks for
// authorization gets it with what its authorization server supports, in the
// SDK's order: a client ID metadata document, then a pre-registered client,
// then dynamic client registration.
type Config struct {
	// ClientID and ClientSecret are a client registered with the server's
	// authorization server ahead of time (a public client has no secret).
	ClientID     string `json:"clientId"`
	ClientSecret string `json:"clientSecret"`
	// ClientMetadataURL is an https URL where this client's metadata
	// document is published; it is used as the client ID by authorization
	// servers that accept such documents. Empty: [Options.ClientMetadataURL].
	ClientMetadataURL string `json:"clientMetadataUrl"`
}

// Validate reports a setting that cannot work.
func (c Config) Validate() error {
	if c.ClientSecret != "" && c.ClientID == "" {
		return errors.New(`oauth: "clientSecret" needs a "clientId"`)
	}
	if c.ClientMetadataURL != "" && !isNonRootHTTPS(c.ClientMetadataURL) {
		return errors.New(`oauth: "clientMetadataUrl" must be an https URL with a path`)
	}
	return nil
}

// isNonRootHTTPS is the SDK's rule for a client ID metadata document URL.
func isNonRootHTTPS(s string) bool {
	u, err := url.Parse(s)
	return err == nil && u.Scheme == "https" && u.Host != "" && u.Path != "" && u.Path != "/"
}

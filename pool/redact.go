package pool

import (
	"os"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mcpexec/mcpexec/internal/childenv"
)

// A server's failure reaches the model as words (why it is down, what its
// process wrote to stderr before it died). The model may be following
// someone else's instructions, so those words never carry a value the
// servers file hands a server (its env, its headers, its OAuth client
// secret), a credential of mcpexec's own, or the home directory's path; and
// they are bounded. The person and the log get the words unchanged
// (Status, the warnings).

// maxReasonChars bounds a reason a model reads, leaving room for the
// sentence around it within the failure text's bound.
const maxReasonChars = 3584

// minSecretLen: shorter values ("1", "true") are settings, not secrets,
// and replacing them would garble the text.
const minSecretLen = 6

const redacted = "[redacted]"

// newRedactor builds the replacement for the configured servers' values.
func newRedactor(servers []ServerConfig) *strings.Replacer {
	var secrets []string
	add := func(v string) {
		if len(v) >= minSecretLen {
			secrets = append(secrets, v)
		}
	}
	for _, cfg := range servers {
		for _, v := range cfg.Env {
			add(v)
		}
		for _, v := range cfg.Headers {
			add(v)
			// "Bearer <token>": the token may show up alone.
			if _, token, ok := strings.Cut(v, " "); ok {
				add(strings.TrimSpace(token))
			}
		}
		if cfg.OAuth != nil {
			add(cfg.OAuth.ClientSecret)
		}
	}
	for _, v := range childenv.Secrets() {
		add(v)
	}
	// Longest first: a value containing another is replaced whole.
	slices.SortFunc(secrets, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
	secrets = slices.Compact(secrets)
	pairs := make([]string, 0, 2*len(secrets)+2)
	for _, s := range secrets {
		pairs = append(pairs, s, redacted)
	}
	if home, err := os.UserHomeDir(); err == nil && len(home) > 1 {
		pairs = append(pairs, home, "~")
	}
	return strings.NewReplacer(pairs...)
}

// forModel is text a model may read: the values replaced, the length
// bounded.
func forModel(r *strings.Replacer, text string) string {
	if r != nil {
		text = r.Replace(text)
	}
	if utf8.RuneCountInString(text) <= maxReasonChars {
		return text
	}
	runes := []rune(text)
	return string(runes[:maxReasonChars]) + "…"
}

// newRedactorLocked builds the redactor for the configured servers.
func (m *Manager) newRedactorLocked() *strings.Replacer {
	configs := make([]ServerConfig, 0, len(m.servers))
	for _, s := range m.servers {
		configs = append(configs, s.cfg)
	}
	return newRedactor(configs)
}

// forModel is forModel with the Manager's current redactor.
func (m *Manager) forModel(text string) string {
	m.mu.Lock()
	r := m.redactor
	m.mu.Unlock()
	return forModel(r, text)
}

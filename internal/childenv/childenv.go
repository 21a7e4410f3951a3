package childenv

import (
	"os"
	"slices"
	"strings"
)

// Token is the variable holding the gateway's HTTP bearer token.
const Token = "MCPEXEC_TOKEN"

// withheld are the variables mcpexec reads as its own credentials.
var withheld = []string{
	Token,
	"OTEL_EXPORTER_OTLP_HEADERS",
	"OTEL_EXPORTER_OTLP_TRACES_HEADERS",
	"OTEL_EXPORTER_OTLP_METRICS_HEADERS",
	"OTEL_EXPORTER_OTLP_LOGS_HEADERS",
}

// Withheld names the variables a child never inherits, sorted.
func Withheld() []string {
	names := slices.Clone(withheld)
	slices.Sort(names)
	return names
}

// Environ is os.Environ without the withheld variables.
func Environ() []string {
	return Without(os.Environ())
}

// Without returns env (NAME=value entries) without the withheld variables.
func Without(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(withheld, name) {
			out = append(out, kv)
		}
	}
	return out
}

// Secrets are the values of the withheld variables set now: text a model
// may read must not contain them.
func Secrets() []string {
	var values []string
	for _, name := range withheld {
		if v := os.Getenv(name); v != "" {
			values = append(values, v)
		}
	}
	return values
}
